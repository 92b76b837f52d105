import fc from 'fast-check';
import type { Message, Transcript } from '../../harness/types.ts';

/**
 * Generated sessions for the property tests: many turns, parallel calls, huge results, error results,
 * results arriving out of call order, the odd orphan call, compaction summaries, and — optionally —
 * steps taken by the receiving agent itself. Every message carries a unique tag (T3, M12, result-of-c7)
 * so a test can tell exactly which source message made it into a rendering.
 */
export interface CallSpec {
  size: number;
  error: boolean;
  orphan: boolean;
  tool: number;
}
export interface StepSpec {
  text: boolean;
  calls: CallSpec[];
  byReceiver: boolean;
  reversed: boolean;
}
export interface TurnSpec {
  steps: StepSpec[];
  finalText: boolean;
  compactBefore: boolean;
}

const callArb: fc.Arbitrary<CallSpec> = fc.record({
  size: fc.oneof(
    { arbitrary: fc.integer({ min: 0, max: 400 }), weight: 6 },
    { arbitrary: fc.integer({ min: 1000, max: 6000 }), weight: 3 },
    { arbitrary: fc.integer({ min: 20_000, max: 60_000 }), weight: 1 },
  ),
  error: fc.integer({ min: 0, max: 5 }).map((n) => n === 0),
  orphan: fc.integer({ min: 0, max: 30 }).map((n) => n === 0),
  tool: fc.integer({ min: 0, max: 4 }),
});

const stepArb = (receiverSteps: boolean): fc.Arbitrary<StepSpec> =>
  fc.record({
    text: fc.boolean(),
    calls: fc.array(callArb, { minLength: 0, maxLength: 4 }),
    byReceiver: receiverSteps ? fc.integer({ min: 0, max: 4 }).map((n) => n === 0) : fc.constant(false),
    reversed: fc.boolean(),
  });

export const turnsArb = (
  opts: { maxTurns?: number; receiverSteps?: boolean; compaction?: boolean } = {},
): fc.Arbitrary<TurnSpec[]> =>
  fc.array(
    fc.record({
      steps: fc.array(stepArb(opts.receiverSteps ?? false), { minLength: 1, maxLength: 4 }),
      finalText: fc.boolean(),
      compactBefore: opts.compaction
        ? fc.integer({ min: 0, max: 5 }).map((n) => n === 0)
        : fc.constant(false),
    }),
    { minLength: 1, maxLength: opts.maxTurns ?? 24 },
  );

const tools = ['read_file', 'grep', 'query_table', 'bash', 'fetch_url'];

/** Deterministic filler of an exact length, tagged at the front so contents stay distinguishable. */
export function filler(tag: string, size: number): string {
  const base = `${tag} `;
  if (size <= base.length) return base.slice(0, Math.max(size, 0));
  const words = 'alpha beta gamma delta merchant_config api_version adapter fallback pinned sandbox\n';
  return (base + words.repeat(Math.ceil(size / words.length) + 1)).slice(0, size);
}

export const primaryAgent = 'primary';
export const receiverAgent = 'escalation';

/** Builds the transcript a spec describes. */
export function buildTranscript(turns: TurnSpec[], opts: { receiverSteps?: boolean } = {}): Transcript {
  const messages: Message[] = [];
  let c = 0;
  let m = 0;
  turns.forEach((turn, t) => {
    if (turn.compactBefore && t > 0)
      messages.push({
        role: 'user',
        agent: primaryAgent,
        compacted: true,
        text: `compaction summary S${t}: the earlier turns set up the work.`,
      });
    messages.push({ role: 'user', text: `request T${t}: please look into item ${t} and report back.` });
    for (const step of turn.steps) {
      const agent = step.byReceiver ? receiverAgent : primaryAgent;
      const calls = step.calls.map((spec) => ({
        spec,
        call: { id: `c${++c}`, name: tools[spec.tool]!, input: { path: `src/file-${c}.ts`, n: c } },
      }));
      const msg: Message = { role: 'assistant', agent };
      if (step.text || calls.length === 0)
        msg.text = `note M${++m}: ${step.text ? 'working on it' : 'thinking'}.`;
      if (calls.length) msg.toolCalls = calls.map((x) => x.call);
      messages.push(msg);
      const answered = calls.filter((x) => !x.spec.orphan);
      const ordered = step.reversed ? [...answered].reverse() : answered;
      if (ordered.length) {
        messages.push({
          role: 'user',
          toolResults: ordered.map((x) => ({
            callId: x.call.id,
            content: filler(`result-of-${x.call.id}`, Math.max(x.spec.size, 20)),
            ...(x.spec.error ? { isError: true } : {}),
          })),
        });
      }
    }
    if (turn.finalText)
      messages.push({ role: 'assistant', agent: primaryAgent, text: `note M${++m}: done with item ${t}.` });
  });
  const agents: Transcript['agents'] = { [primaryAgent]: { role: 'primary' } };
  if (opts.receiverSteps) agents[receiverAgent] = { role: 'escalation' };
  return { id: 'generated', messages, agents };
}

export const transcriptArb = (
  opts: { maxTurns?: number; receiverSteps?: boolean; compaction?: boolean } = {},
): fc.Arbitrary<Transcript> => turnsArb(opts).map((turns) => buildTranscript(turns, opts));
