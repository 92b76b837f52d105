import type { AgentInfo, Draft, Message, Transcript } from '../core/index.ts';
import { rngFor } from '../providers/sim/rng.ts';

/**
 * Generated sessions for invariant checks: many turns, parallel calls, huge results, error results,
 * results arriving out of call order, the odd orphan call, compaction summaries, and — optionally —
 * steps taken by the receiving agent itself. Every message carries a unique tag (T3, M12, result-of-c7)
 * so a check can tell exactly which source message made it into a rendering. The property tests draw
 * the specs with fast-check (test/strategies/generate.ts); `generateTranscript` draws them from a seed.
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
/**
 * One turn of a generated session (the kit's seeded inputs): its tool steps and whether it ends with text.
 */
export interface TurnSpec {
  steps: StepSpec[];
  finalText: boolean;
  compactBefore: boolean;
}

export interface GenerateOptions {
  /** At most this many turns. @default 24 */
  maxTurns?: number;
  /** Some steps are taken by the receiving agent (`escalation`) itself. @default false */
  receiverSteps?: boolean;
  /** Some turns open after a compaction summary. @default false */
  compaction?: boolean;
}

const tools = ['read_file', 'grep', 'query_table', 'bash', 'fetch_url'];

export const primaryAgent = 'primary';
export const receiverAgent = 'escalation';

/** Deterministic filler of an exact length, tagged at the front so contents stay distinguishable. */
export function filler(tag: string, size: number): string {
  const base = `${tag} `;
  if (size <= base.length) return base.slice(0, Math.max(size, 0));
  const words = 'alpha beta gamma delta merchant_config api_version adapter fallback pinned sandbox\n';
  return (base + words.repeat(Math.ceil(size / words.length) + 1)).slice(0, size);
}

/** A session drawn from a seed: the same seed and options give the same transcript. */
export function generateTranscript(seed: string | number, opts: GenerateOptions = {}): Transcript {
  const r = rngFor('generate', seed);
  const int = (min: number, max: number) => min + Math.floor(r() * (max - min + 1));
  const size = () => {
    const x = r();
    return x < 0.6 ? int(0, 400) : x < 0.9 ? int(1000, 6000) : int(20_000, 60_000);
  };
  const turns: TurnSpec[] = Array.from({ length: int(1, opts.maxTurns ?? 24) }, () => ({
    steps: Array.from({ length: int(1, 4) }, () => ({
      text: r() < 0.5,
      calls: Array.from({ length: int(0, 4) }, () => ({
        size: size(),
        error: r() < 1 / 6,
        orphan: r() < 1 / 31,
        tool: int(0, tools.length - 1),
      })),
      byReceiver: (opts.receiverSteps ?? false) && r() < 0.2,
      reversed: r() < 0.5,
    })),
    finalText: r() < 0.5,
    compactBefore: (opts.compaction ?? false) && r() < 1 / 6,
  }));
  return { ...buildTranscript(turns, opts), id: `generated-${seed}` };
}

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
      const msg: Draft<Message> = { role: 'assistant', agent };
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
  const agents: Record<string, AgentInfo> = { [primaryAgent]: { role: 'primary' } };
  if (opts.receiverSteps) agents[receiverAgent] = { role: 'escalation' };
  return { id: 'generated', messages, agents };
}
