/**
 * Benchmark (not a test): rendering parity-narration for a ~1 MB session — the retention plan,
 * narration with fenced results, head+tail trim to the default 200k-token budget, the TL;DR brick and
 * the stats. Target: under 100 ms. Run: `npx tsx bench/render.ts [--mb 1] [--runs 15]`.
 *
 * Three figures: `first` (the first render in the process: JIT warm-up, nothing cached), `fresh`
 * (a new session each run: nothing memoised for its texts — what one `handoff-eval render` costs),
 * `repeat` (the same session again: derived views and token counts are memoised).
 * Also `npm run bench -- render [--mb 1] [--runs 15]`.
 */
import { pathToFileURL } from 'node:url';
import type { Message, StrategyContext, Transcript } from '../harness/core/index.ts';
import { countTokens } from '../harness/core/tokens.ts';
import { parityNarration } from '../strategies/parity-narration.ts';
import { resolveParams } from '../strategies/define.ts';

const words =
  'merchant adapter fallback pinned version sandbox config table column request response header retry error timeout region build test deploy'.split(
    ' ',
  );

/** A deterministic agent session of about `bytes` bytes: turns of parallel calls, big and error results. */
export function generateSession(bytes: number, salt = 0): Transcript {
  let state = 0x9e3779b9 ^ salt;
  const rand = () => (state = (Math.imul(state ^ (state >>> 15), 0x85ebca6b) + 0x6b79) >>> 0) / 2 ** 32;
  const text = (n: number) =>
    Array.from({ length: n }, () => words[Math.floor(rand() * words.length)]).join(' ');
  const messages: Message[] = [];
  let size = 0;
  let id = 0;
  for (let turn = 0; size < bytes; turn++) {
    messages.push({ role: 'user', text: `[${salt}] request ${turn}: ${text(30)}` });
    for (let step = 0; step < 3 && size < bytes; step++) {
      const calls = Array.from({ length: 1 + Math.floor(rand() * 3) }, () => ({
        id: `call_${salt}_${++id}`,
        name: rand() < 0.5 ? 'read_file' : 'bash',
        input: { path: `src/module-${id}.ts`, why: text(6) },
      }));
      messages.push({
        role: 'assistant',
        agent: 'primary',
        text: `step ${turn}.${step}: ${text(40)}`,
        toolCalls: calls,
      });
      const results = calls.map((c) => {
        const big = rand() < 0.1;
        const content = `${c.id}: ${text(big ? 2500 : 50 + Math.floor(rand() * 300))}`;
        size += content.length + 200;
        return { callId: c.id, content, ...(rand() < 0.08 ? { isError: true } : {}) };
      });
      messages.push({ role: 'user', toolResults: results.reverse() });
    }
    messages.push({ role: 'assistant', agent: 'primary', text: `turn ${turn} done: ${text(60)}` });
  }
  return { id: `bench-${salt}`, messages, agents: { primary: { role: 'primary' } } };
}

async function renderOnce(t: Transcript): Promise<number> {
  const ctx: StrategyContext = {
    case: {
      id: t.id!,
      suite: 'bench',
      direction: 'escalation',
      task: 'continue',
      source: t,
      assertions: [],
      reference: { facts: [], caveats: [] },
      criteria: [],
    },
    arm: { name: 'bench', strategy: 'parity-narration', models: { source: 'large', receiver: 'large' } },
    rep: 0,
    budgetTokens: 200_000,
    tokens: countTokens,
    call: async () => {
      throw new Error('parity-narration with middle=drop makes no model call');
    },
  };
  const started = performance.now();
  const h = await parityNarration.prepare(ctx, resolveParams(parityNarration, {}) as never);
  const ms = performance.now() - started;
  if (h.messages.length === 0) throw new Error('empty rendering');
  return ms;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function main(argv = process.argv.slice(2)): Promise<number> {
  const arg = (name: string, d: number) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? Number(argv[i + 1]) : d;
  };
  const bytes = arg('mb', 1) * 1024 * 1024;
  const runs = arg('runs', 15);
  const sessions = Array.from({ length: runs + 1 }, (_, i) => generateSession(bytes, i));
  const mb = (JSON.stringify(sessions[0]).length / 1024 / 1024).toFixed(2);
  const first = await renderOnce(sessions[0]!);
  const fresh: number[] = [];
  for (let i = 1; i <= runs; i++) fresh.push(await renderOnce(sessions[i]!));
  const repeat: number[] = [];
  for (let i = 0; i < runs; i++) repeat.push(await renderOnce(sessions[1]!));
  const line = (name: string, ms: number) => `${name.padEnd(8)} ${ms.toFixed(1).padStart(7)} ms`;
  process.stdout.write(
    [
      `render parity-narration — ${mb} MB session, ${sessions[0]!.messages.length} messages, budget 200k tokens, ${runs} runs (target < 100 ms)`,
      line('first', first),
      line('fresh', median(fresh)) +
        `  (median; p90 ${[...fresh].sort((a, b) => a - b)[Math.floor(runs * 0.9)]!.toFixed(1)} ms)`,
      line('repeat', median(repeat)) + '  (median)',
      '',
    ].join('\n'),
  );
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href)
  process.exitCode = await main();
