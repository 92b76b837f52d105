import { describe, expect, it } from 'vitest';
import type { Assertion, ChatMessage, ModelRequest } from '../../harness/core/index.ts';
import { createSimProvider } from '../../harness/providers/sim/index.ts';
import { lengthFactor, positionFactor, useFactor } from '../../harness/providers/sim/context-effects.ts';
import { readContext } from '../../harness/providers/sim/context.ts';
import { contextRotExponent, defaultSimRates } from '../../harness/providers/sim/rates.ts';
import { matchClaim } from '../../harness/core/text/cues.ts';

const rates = defaultSimRates.large;
const claim: Assertion = {
  id: 'a1',
  kind: 'confident',
  statement: 'Nineteen merchants pin 2023-10 in merchant_config.',
  claim: 'Nineteen merchants pin 2023-10 in merchant_config.',
  cues: ['nineteen merchants', 'pin 2023-10'],
};

/** Filler research notes with the claim as message `at` of `count` (every message the same size). */
function messagesWithClaimAt(at: number, count = 21): ChatMessage[] {
  const filler = (i: number) =>
    `Note ${i}: read adapters/checkout.ts lines ${i * 40}–${i * 40 + 39}; nothing about versions there. `.repeat(
      12,
    );
  return Array.from({ length: count }, (_, i): ChatMessage => ({
    role: i % 2 === 0 ? 'user' : 'assistant',
    text: i === at ? `${filler(i)}\n${claim.statement}` : filler(i),
  }));
}

function request(messages: ChatMessage[], seed: string): ModelRequest {
  return {
    purpose: 'answer',
    model: 'sim-large',
    seed,
    maxTokens: 1000,
    messages: [...messages, { role: 'user', text: 'Which merchants break?' }],
    sim: { caseId: 'c', assertions: [claim], reference: { facts: [], caveats: [] } },
  };
}

async function useRate(messages: ChatMessage[], sim = createSimProvider(), n = 400): Promise<number> {
  let used = 0;
  for (let i = 0; i < n; i++) {
    const res = await sim.generate(request(messages, `seed-${i}`));
    if (res.text.toLowerCase().includes('nineteen merchants')) used++;
  }
  return used / n;
}

describe('sim context effects (Liu et al. 2024 position curve, Chroma 2025 length decay)', () => {
  it('the position factor is the published accuracy relative to its best point, linear between points', () => {
    const p = rates.contextPosition;
    expect(positionFactor(0, p)).toBe(1);
    expect(positionFactor(9 / 19, p)).toBeCloseTo(0.538 / 0.758, 6);
    expect(positionFactor(1, p)).toBeCloseTo(0.632 / 0.758, 6);
    const mid = (0.572 + 0.538) / 2 / 0.758;
    expect(positionFactor((4 / 19 + 9 / 19) / 2, p)).toBeCloseTo(mid, 6);
    expect(positionFactor(0.5, { ...p, strength: 0 })).toBe(1);
    expect(positionFactor(9 / 19, { ...p, strength: 0.5 })).toBeCloseTo(1 - 0.5 * (1 - 0.538 / 0.758), 6);
  });

  it('the length factor reproduces the GPT-4.1 LongMemEval ratio at the full prompts’ length, and is 1 when off', () => {
    const l = rates.contextLength;
    expect(contextRotExponent).toBeCloseTo(0.0548, 4);
    expect(lengthFactor(112_767, l)).toBeCloseTo(191 / 267, 6);
    expect(lengthFactor(251, l)).toBe(1);
    expect(lengthFactor(100, l)).toBe(1);
    expect(lengthFactor(50_000, { ...l, strength: 0 })).toBe(1);
    expect(lengthFactor(22_000, l)).toBeGreaterThan(lengthFactor(50_000, l));
  });

  it('reads a claim’s position off the rendered request in tokens, never off who rendered it', () => {
    const early = readContext(request(messagesWithClaimAt(0), 's'));
    const middle = readContext(request(messagesWithClaimAt(10), 's'));
    const f = (ctx: typeof early) => useFactor(ctx, matchClaim(ctx.all, claim).lines, rates);
    const len = lengthFactor(early.tokens, rates.contextLength);
    expect(early.tokens).toBe(middle.tokens);
    // The claim closes message 0 (or 10) of 21 equal messages, plus the short task: ~1/21 (~11/21) in.
    expect(f(early) / len).toBeCloseTo(positionFactor(1 / 21, rates.contextPosition), 2);
    expect(f(middle) / len).toBeCloseTo(positionFactor(11 / 21, rates.contextPosition), 2);
    expect(f(middle)).toBeLessThan(f(early));
  });

  it('the same claim in the same request is used less often in the middle than at the start, as the curve says', async () => {
    const start = await useRate(messagesWithClaimAt(0));
    const middle = await useRate(messagesWithClaimAt(10));
    const ratio = middle / start;
    expect(ratio).toBeGreaterThan(0.6);
    expect(ratio).toBeLessThan(0.82);
  });

  it('with both strengths at zero, position and length change nothing', async () => {
    const off = createSimProvider({
      sizes: {
        large: {
          contextPosition: { ...rates.contextPosition, strength: 0 },
          contextLength: { ...rates.contextLength, strength: 0 },
        },
      },
    });
    for (let i = 0; i < 40; i++) {
      const a = await off.generate(request(messagesWithClaimAt(0), `s${i}`));
      const b = await off.generate(request(messagesWithClaimAt(10, 61), `s${i}`));
      expect(a.text).toBe(b.text);
    }
  });
});
