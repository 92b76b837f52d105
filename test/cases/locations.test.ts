import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { toCase } from '../../cases/load.ts';
import { claimPlaces, locationOf } from '../../cases/locations.ts';
import { CaseValidationError } from '../../harness/core/errors.ts';
import type { Assertion, Transcript } from '../../harness/core/index.ts';
import { indexText, matchClaim } from '../../harness/core/text/cues.ts';
import { lastAssistantText } from '../../harness/core/transcript/view.ts';
import { renderTranscript } from '../../strategies/render.ts';
import { shippedSuites, sourcesOf, suite } from './helpers.ts';

const good = JSON.parse(
  readFileSync(
    fileURLToPath(new URL('../fixtures/cases/mini/cases/deprecation-1.json', import.meta.url)),
    'utf8',
  ),
);
const mini = { id: 'mini', criteria: ['correctness'], direction: 'return' as const };

/** A child session: a hedge said between calls, an assumption only in a tool result, a final report. */
const session: Transcript = {
  agents: { child: { role: 'child' } },
  messages: [
    { role: 'user', text: 'Find the affected merchants.' },
    {
      role: 'assistant',
      agent: 'child',
      text: 'I could not determine whether the sandbox adapter uses the same version pin. Reading the table.',
      toolCalls: [{ id: 't1', name: 'query_table', input: {} }],
    },
    {
      role: 'user',
      toolResults: [
        {
          callId: 't1',
          content: '-- Assumption: the api_version column is authoritative (ADR 12)\nm_0007 | 2023-10',
        },
      ],
    },
    { role: 'assistant', agent: 'child', text: 'Two merchants pin 2023-10 (m_0007, m_0013).' },
  ],
};
const labels: Record<string, Assertion> = {
  conf: good.assertions[0],
  hedge: good.assertions[1],
  assume: good.assertions[2],
};

async function load(location: Record<string, string>, source: Transcript = session) {
  const raw = structuredClone(good);
  raw.source = source;
  raw.assertions = raw.assertions.map((a: Assertion) => ({
    ...a,
    ...(location[a.id] ? { location: location[a.id] } : {}),
  }));
  return toCase(raw, 'cases/x.json', '/tmp', mini);
}

async function problem(location: Record<string, string>): Promise<CaseValidationError> {
  try {
    await load(location);
  } catch (err) {
    expect(err).toBeInstanceOf(CaseValidationError);
    return err as CaseValidationError;
  }
  throw new Error('expected a validation error');
}

describe('claim locations', () => {
  it('reads where each claim is: final message, between tool calls, only in a tool result', () => {
    expect(claimPlaces([session], labels.conf!)).toEqual({ final: true, mid: false, tool: false });
    expect(claimPlaces([session], labels.hedge!)).toEqual({ final: false, mid: true, tool: false });
    expect(claimPlaces([session], labels.assume!)).toEqual({ final: false, mid: false, tool: true });
    expect(locationOf(claimPlaces([session], labels.assume!))).toBe('tool_result_only');
  });

  it('accepts labels that agree with the transcript', async () => {
    const c = await load({ a1: 'final_message', a2: 'mid_transcript', a3: 'tool_result_only' });
    expect(c.assertions.map((a) => a.location)).toEqual([
      'final_message',
      'mid_transcript',
      'tool_result_only',
    ]);
  });

  it('rejects a label the transcript contradicts, naming the file, the case and the field', async () => {
    const restated = await problem({ a2: 'final_message' });
    expect(restated.message).toContain('cases/x.json');
    expect(restated.message).toContain('assertions[1].location');
    expect(restated.message).toMatch(/not in the source's final message/);
    expect((await problem({ a3: 'mid_transcript' })).message).toMatch(
      /in no assistant message between tool calls/,
    );
    expect((await problem({ a2: 'tool_result_only' })).message).toMatch(
      /is stated by the source \(mid_transcript\)/,
    );
    expect((await problem({ a1: 'mid_transcript' })).message).toMatch(/restated in the final message/);
  });

  it('a qualified kind counts only where its qualifier is: a bare restatement does not make it final', async () => {
    const bare: Transcript = {
      ...session,
      messages: session.messages.map((m, i) =>
        i === 3 ? { ...m, text: `${m.text}\nThe sandbox adapter uses the same version pin.` } : m,
      ),
    };
    expect(claimPlaces([bare], labels.hedge!)).toEqual({ final: false, mid: true, tool: false });
  });

  it('primary_tool_evidence belongs to escalation cases', async () => {
    const raw = structuredClone(good);
    raw.source = session;
    raw.assertions[2].location = 'primary_tool_evidence';
    await expect(toCase(raw, 'cases/x.json', '/tmp', mini)).rejects.toThrow(/for escalation cases/);
    await expect(
      toCase({ ...raw, direction: 'escalation' }, 'cases/x.json', '/tmp', mini),
    ).resolves.toBeTruthy();
  });

  it('the schema names a location outside the four', async () => {
    const raw = structuredClone(good);
    raw.assertions[0].location = 'somewhere';
    await expect(toCase(raw, 'cases/x.json', '/tmp', mini)).rejects.toThrow(/assertions\.0\.location/);
  });
});

describe('the shipped suites spread their claims over locations', () => {
  const kinds = ['confident', 'hedged', 'assumption', 'unresolved'] as const;

  it('every assertion of every return and escalation case says where the source put it', async () => {
    for (const s of await shippedSuites())
      for (const c of s.cases) {
        if (c.direction === 'spawn') continue;
        for (const a of c.assertions) expect(a.location, `${c.id} ${a.id}`).toBeDefined();
      }
  });

  it('ledgerline, multi-child and milk: every kind × location combination in at least 5 cases', async () => {
    const wanted: Record<string, readonly string[]> = {
      ledgerline: ['final_message', 'mid_transcript', 'tool_result_only'],
      'multi-child': ['final_message', 'mid_transcript', 'tool_result_only'],
      milk: ['final_message', 'mid_transcript', 'tool_result_only', 'primary_tool_evidence'],
    };
    for (const [id, locations] of Object.entries(wanted)) {
      const s = await suite(id);
      for (const kind of kinds)
        for (const location of locations) {
          const n = s.cases.filter((c) =>
            c.assertions.some((a) => a.kind === kind && a.location === location),
          ).length;
          expect(n, `${id}: ${kind} × ${location}`).toBeGreaterThanOrEqual(5);
        }
    }
  });

  it("a claim said mid-session or only read is nowhere in the parent's own history, and not in the final message", async () => {
    for (const id of ['ledgerline', 'multi-child']) {
      for (const c of (await suite(id)).cases) {
        const history = indexText(renderTranscript(c.receiverHistory!));
        const finals = sourcesOf(c).map((t) => indexText(lastAssistantText(t)?.text ?? ''));
        for (const a of c.assertions) {
          if (a.location === 'final_message') continue;
          expect(matchClaim(history, a).present, `${c.id} ${a.id} in history`).toBe(false);
          for (const f of finals)
            expect(matchClaim(f, a).present, `${c.id} ${a.id} in a final message`).toBe(false);
        }
      }
    }
  });
});
