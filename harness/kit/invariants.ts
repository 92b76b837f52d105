import type { Case, Handoff, HandoffStats, ModelResponse, Strategy } from '../core/index.ts';
import type { CheckFailure, InvariantName } from './types.ts';
import { countTokens, messagesTokens } from '../core/tokens.ts';
import { allTrailItems } from '../core/transcript/view.ts';
import { markersCheck, pairingProblems } from '../../judges/checks.ts';
import { renderMessages } from '../../strategies/render.ts';
import { visibleSourceCalls } from '../../strategies/finish.ts';

/** A broken invariant before the kit names the input and params it broke on. */
export type Problem = Pick<CheckFailure, 'invariant' | 'message' | 'detail'>;

const EXCERPT = 240;

/** What the receiver sees, one rendered string per place: the system prompt, then each message. */
export function viewOf(h: Handoff): { at: number | 'system'; text: string }[] {
  return [
    { at: 'system' as const, text: h.system },
    ...renderMessages(h.messages).map((text, i) => ({ at: i, text })),
  ];
}

export function excerpt(text: string, from = 0): string {
  const s = text.slice(Math.max(0, from - 40), from + EXCERPT).replace(/\s+/g, ' ');
  return from > 40 ? `…${s}` : s;
}

function at(h: Handoff, index: number | 'system', from = 0): Problem['message'] {
  const text = index === 'system' ? h.system : renderMessages(h.messages)[index]!;
  return { in: 'handoff', index, excerpt: excerpt(text, from) };
}

export function pairing(h: Handoff): Problem[] {
  return pairingProblems(h.messages).map((p) => ({
    invariant: 'pairing',
    message: at(h, p.message),
    detail: p.detail,
  }));
}

export function markers(h: Handoff): Problem[] {
  const out: Problem[] = [];
  for (const m of h.stats.markers)
    if (typeof m.text !== 'string' || m.text === '' || !(m.dropped >= 0))
      out.push({ invariant: 'markers', detail: `malformed marker ${JSON.stringify(m)}` });
  const check = markersCheck(h);
  if (!check.passed) out.push({ invariant: 'markers', detail: check.detail });
  return out;
}

/** Every stat recomputed from what the handoff holds and the calls the kit saw made. */
export function stats(c: Case, h: Handoff, made: readonly ModelResponse[]): Problem[] {
  const sum = (f: (r: ModelResponse) => number) => made.reduce((n, r) => n + f(r), 0);
  const expected: Partial<Record<keyof HandoffStats, number>> = {
    chars: h.payload.length,
    tokens: payloadTokens(h),
    toolCallsVisible: visibleSourceCalls(c.sources ?? [c.source], h.messages),
    calls: made.length,
    inputTokens: sum((r) => r.usage.inputTokens),
    outputTokens: sum((r) => r.usage.outputTokens),
    latencyMs: sum((r) => r.latencyMs),
    retries: sum((r) => r.retries),
    costUsd: sum((r) => r.costUsd),
  };
  const out: Problem[] = [];
  for (const [field, want] of Object.entries(expected)) {
    const got = h.stats[field as keyof HandoffStats];
    if (typeof got !== 'number' || Math.abs(got - want!) > 1e-9)
      out.push({
        invariant: 'stats',
        detail: `stats.${field} is ${JSON.stringify(got)}, the handoff says ${want} (${statSource[field]})`,
      });
  }
  for (const field of ['retained', 'dropped', 'manifest'] as const) {
    const got = h.stats[field];
    if (!Number.isInteger(got) || got < 0)
      out.push({ invariant: 'stats', detail: `stats.${field} is ${JSON.stringify(got)}, not a count` });
  }
  if (!Array.isArray(h.stats.markers))
    out.push({ invariant: 'stats', detail: 'stats.markers is not a list' });
  return out;
}

/**
 * The payload's tokens as the receiver's request carries them (docs/results.md#token-figures): a text
 * payload is its o200k count; a payload passed as messages is a tail of the messages counted per
 * message (plus a brick placed in the system framing). The stat must be one of those readings.
 */
function payloadTokens(h: Handoff): number {
  const text = countTokens(h.payload);
  if (h.stats.tokens === text) return text;
  const brick = typeof h.artifacts.brick === 'string' ? countTokens(h.artifacts.brick) : 0;
  for (let k = 0; k <= h.messages.length; k++) {
    const tail = messagesTokens(h.messages.slice(k));
    if (h.stats.tokens === tail || h.stats.tokens === tail + brick) return h.stats.tokens;
  }
  return text;
}

const statSource: Record<string, string> = {
  chars: 'payload length',
  tokens: 'o200k tokens of the payload, or of a tail of the messages as the request counts them',
  toolCallsVisible: 'source tool calls shown in the messages',
  calls: 'model calls made through ctx.call',
  inputTokens: 'input tokens of those calls',
  outputTokens: 'output tokens of those calls',
  latencyMs: 'latency of those calls',
  retries: 'retries of those calls',
  costUsd: 'cost of those calls',
};

export function toolsServed(h: Handoff): Problem[] {
  if (h.tools.length === 0) return [];
  if (typeof h.runTool !== 'function')
    return [
      {
        invariant: 'tools-served',
        detail: `tools ${h.tools.map((t) => t.name).join(', ')} given, no runTool`,
      },
    ];
  const out: Problem[] = [];
  for (const tool of h.tools) {
    try {
      const answer = h.runTool({ id: 'kit-probe', name: tool.name, input: {} });
      if (typeof answer !== 'string')
        out.push({
          invariant: 'tools-served',
          detail: `runTool(${tool.name}) returned ${typeof answer}, not text`,
        });
    } catch (err) {
      out.push({
        invariant: 'tools-served',
        detail: `runTool(${tool.name}({})) threw ${(err as Error).message} — a receiver's bad call must get an answer`,
      });
    }
  }
  return out;
}

/** The handoff as data (functions left out), for comparing two preparations. */
export function snapshot(h: Handoff): string {
  const { runTool: _served, ...data } = h;
  return JSON.stringify(data);
}

/** Where two handoffs first differ: the field, and the message index when it is a message. */
export function difference(a: Handoff, b: Handoff, invariant: InvariantName, why: string): Problem[] {
  if (snapshot(a) === snapshot(b)) return [];
  for (const field of ['system', 'payload'] as const)
    if (a[field] !== b[field])
      return [{ invariant, message: at(a, 'system'), detail: `${field} differs ${why}` }];
  const n = Math.max(a.messages.length, b.messages.length);
  for (let i = 0; i < n; i++)
    if (JSON.stringify(a.messages[i]) !== JSON.stringify(b.messages[i]))
      return [
        {
          invariant,
          message: i < a.messages.length ? at(a, i) : undefined,
          detail: `message ${i} differs ${why} (${a.messages.length} vs ${b.messages.length} messages)`,
        },
      ];
  for (const field of ['stats', 'tools', 'artifacts'] as const)
    if (JSON.stringify(a[field]) !== JSON.stringify(b[field]))
      return [{ invariant, detail: `${field} differ ${why}: ${excerpt(JSON.stringify(a[field]))}` }];
  return [{ invariant, detail: `the handoffs differ ${why}` }];
}

/** The declared property for these params (a boolean, a policy, or a function of the params). */
export function declared<T>(
  value: T | ((params: any) => T) | undefined,
  params: Record<string, unknown>,
): T | undefined {
  return typeof value === 'function' ? (value as (p: Record<string, unknown>) => T)(params) : value;
}

export function marksCuts(s: Strategy<any>, params: Record<string, unknown>): boolean {
  return declared(s.properties?.marksCuts, params) ?? true;
}

/** Every source tool call with a result, in order. */
export function sourceResults(c: Case) {
  return (c.sources ?? [c.source]).flatMap((t) => allTrailItems(t).filter((x) => x.result));
}
