import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type {
  Case,
  ModelRequestInput,
  Provider,
  Suite,
  SurvivalMark,
  Transcript,
} from '../../harness/core/index.ts';
import { loadSuites } from '../../cases/load.ts';
import { resolveConfig } from '../../harness/config/resolve-config.ts';
import { lastAssistantText } from '../../harness/core/transcript/view.ts';
import { planCells } from '../../harness/runner/plan.ts';
import { prepareLive } from '../../harness/runner/live-cell.ts';
import { readSourceClaims } from '../../judges/source-claims.ts';
import { decideSurvival } from '../../judges/survival-decide.ts';
import { startMockLlmServer, type MockServer } from '../support/mock-llm-server.ts';
import type { MockReply } from '../support/mock-llm-wire.ts';
import { scriptedAgent } from '../support/mock-agent.ts';
import { repoRoot } from '../support/cli.ts';
import { scriptedClassifierResponder, type ReaderLog, type Wordings } from '../support/scripted-reader.ts';
import type { ParaphraseFixture } from '../fixtures/paraphrases/types.ts';
import { ledgerline, ledgerlineReport, seedWordsAssumption } from '../fixtures/paraphrases/ledgerline.ts';
import { milk } from '../fixtures/paraphrases/milk.ts';
import { multiChild } from '../fixtures/paraphrases/multi-child.ts';
import { loopbackProvider } from '../support/mock-run.ts';

/**
 * Issue 26 item 4 and its probe, end to end through the real SDKs against the loopback mock (both
 * vendors' protocols): hand-written paraphrases of three sources' final reports, each claim's truth
 * labelled by hand (made? where? hedge kept?), read by a scripted classifier that answers the forced
 * classify_survival call over the wire. Every labelled claim must reach the classifier in every
 * request, and the made / location / hedge readings and the payload and answer marks must equal the
 * hand labels — whatever the case's cue strings would say.
 */
let mock: MockServer;
let wordings: Wordings = {};
let finalText = '';
const log: ReaderLog[] = [];
const script: MockReply[] = [
  {
    text: 'The table and the code first.',
    toolCalls: [
      { name: 'query', input: { sql: 'SELECT count(*) AS n FROM merchant_config' } },
      { name: 'search_code', input: { query: 'api_version' } },
    ],
  },
];
const providers: Provider[] = [];
const suites = new Map<string, Suite>();

beforeAll(async () => {
  mock = await startMockLlmServer({
    latencyMs: 1,
    responder: (b, p) =>
      scriptedClassifierResponder(wordings, log)(b, p) ?? scriptedAgent(script, finalText)(b, p),
  });
  for (const s of await loadSuites(join(repoRoot, 'cases'), [
    { id: 'ledgerline' },
    { id: 'milk' },
    { id: 'multi-child' },
  ]))
    suites.set(s.id, s);
}, 120_000);
afterAll(async () => {
  await Promise.all(providers.map((p) => p.close?.()));
  await mock.close();
});

const config = resolveConfig({});
const vendors = {
  openai: {
    model: 'gpt-4o-mini',
    make: () => loopbackProvider(mock, 'openai', config),
  },
  anthropic: {
    model: 'claude-haiku-4-5',
    make: () => loopbackProvider(mock, 'anthropic', config),
  },
};

async function wire(vendor: keyof typeof vendors) {
  const p = await vendors[vendor].make();
  providers.push(p);
  let n = 0;
  return (r: ModelRequestInput) => p.generate({ ...r, model: vendors[vendor].model, seed: `pw/${n++}` });
}

const caseOf = (f: Pick<ParaphraseFixture, 'suite' | 'caseId'>): Case =>
  suites.get(f.suite)!.cases.find((c) => c.id === f.caseId)!;

/** The recorded transcript with its final message (last assistant text) replaced by the paraphrase. */
function withFinal(t: Transcript, text: string): Transcript {
  const at = lastAssistantText(t)!.index;
  return { ...t, messages: t.messages.map((m, i) => (i === at ? { ...m, text } : m)) };
}

/** What the hand labels say the payload / answer should read when both are the paraphrased report(s). */
function expectedMark(t: ParaphraseFixture['truth'][string]): SurvivalMark {
  if (t.where !== 'final_message') return 'absent';
  return t.hedgeKept === false ? 'overstated' : 'kept';
}

describe.each(['openai', 'anthropic'] as const)('paraphrased reports through the %s wire', (vendor) => {
  it.each([ledgerline, milk, multiChild])(
    '$caseId: every labelled claim reaches the classifier; made, where, hedge and survival match the hand labels',
    async (f) => {
      const c = caseOf(f);
      const ids = c.assertions.map((a) => a.id);
      expect(Object.keys(f.truth).sort()).toEqual([...ids].sort()); // the fixture labels every claim
      const sources = (c.sources ?? [c.source]).map((t, i) => withFinal(t, f.finals[i]!));
      wordings = f.wordings;
      log.length = 0;
      const call = await wire(vendor);
      const reading = await readSourceClaims(call, c, sources);
      expect(log.map((l) => l.section)).toEqual([
        "the source agent's final message (its report)",
        "the source agent's other messages, written between its tool calls",
        "what the source agent's tool calls returned to it (not the agent's own words)",
      ]);
      for (const l of log) expect(l.ids).toEqual(ids);
      const got = Object.fromEntries(
        reading.claims.map((x) => [x.assertionId, { where: x.location, mark: x.mark }]),
      );
      const want = Object.fromEntries(
        Object.entries(f.truth).map(([id, t]) => [
          id,
          {
            where: t.where,
            mark: t.where === 'not_made' ? 'absent' : t.hedgeKept === false ? 'overstated' : 'kept',
          },
        ]),
      );
      expect(got).toEqual(want);

      log.length = 0;
      const handed = f.finals.join('\n\n');
      const decided = await decideSurvival(call, c.id, c.assertions, c.reference, {
        payload: handed,
        answer: handed,
      });
      expect(log.map((l) => l.ids)).toEqual([ids, ids]);
      expect(Object.fromEntries(decided.results.map((r) => [r.assertionId, [r.payload, r.answer]]))).toEqual(
        Object.fromEntries(
          Object.entries(f.truth).map(([id, t]) => [id, [expectedMark(t), expectedMark(t)]]),
        ),
      );
      // The cue matcher misses what the paraphrase says in other words: recorded, not decisive.
      expect(decided.disagreement.payload).toBeGreaterThan(0);
    },
    60_000,
  );

  it('the ledgerline-01 probe: a live source in its own words is credited with the same claims as one in the seed words', async () => {
    const seedWords = `${lastAssistantText(caseOf(ledgerline).source)!.text}\n\n${seedWordsAssumption}`;
    const credited: Record<string, string[]> = {};
    const byCues: Record<string, string[]> = {};
    for (const [name, text] of [
      ['seed words', seedWords],
      ['own words', ledgerlineReport],
    ] as const) {
      finalText = text;
      wordings = ledgerline.wordings;
      const p = await vendors[vendor].make();
      providers.push(p);
      const cell = planCells([suites.get('ledgerline')!], resolveConfig({ reps: 1 }, { mode: 'live' })).find(
        (x) => x.caseId === 'ledgerline-01' && x.arm === 'final-message',
      )!;
      let n = 0;
      const live = await prepareLive(cell, {}, (_role, r) =>
        p.generate({ ...r, model: vendors[vendor].model, seed: `probe/${n++}` }),
      );
      credited[name] = live!.case.assertions.map((a) => `${a.id}@${a.location}`);
      byCues[name] = live!.reading!.claims.filter((x) => x.cues !== 'not_made').map((x) => x.assertionId);
      live!.close();
    }
    expect(credited['own words']).toEqual(credited['seed words']);
    expect(credited['own words']!.length).toBeGreaterThanOrEqual(7);
    for (const id of ['direct', 'indirect', 'date', 'total', 'sandbox-pin', 'edge-proxy', 'assume-column'])
      expect(credited['own words']).toContain(`${id}@final_message`);
    // What main did: the cue matcher alone credits the paraphrase with far fewer.
    expect(byCues['own words']!.length).toBeLessThan(byCues['seed words']!.length);
  }, 120_000);
});
