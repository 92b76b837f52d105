import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Case, ModelRequestInput, Transcript, World } from '../../harness/core/index.ts';
import { loadSuites } from '../../cases/load.ts';
import { createSimProvider, type SimOptions } from '../../harness/providers/sim/index.ts';
import { materializeWorld } from '../../harness/live/world.ts';
import { diskAccess, type WorldAccess } from '../../harness/live/access.ts';
import { createWorldTools } from '../../harness/live/tools.ts';
import { runSourceLoop } from '../../harness/live/loop.ts';
import { simHintsOf } from '../../strategies/compose.ts';
import { contractNotice } from '../../strategies/structured-contract.ts';
import { defaultLiveRates } from '../../harness/providers/sim/live-rates.ts';
import { repoRoot } from '../support/cli.ts';
import { indexText } from '../../harness/core/text/cues.ts';
import { readClaim } from '../../harness/core/text/reading.ts';

/**
 * The sim as a live source (harness/providers/sim/act.ts): a seeded policy driven by its context —
 * never by the case's labels or reference — that stops when no lead is left or the budget is spent,
 * takes one more look when told it must fill coverage.not_searched, and reports only what its own
 * calls ground.
 */
let cases: Case[] = [];
const open: WorldAccess[] = [];
beforeAll(async () => {
  const [s] = await loadSuites(join(repoRoot, 'cases'), [{ id: 'ledgerline' }]);
  cases = s!.cases.filter((c) => c.world);
});
afterAll(() => open.forEach((w) => w.close()));

async function live(
  c: Case,
  o: {
    rep?: number;
    budget?: number;
    notice?: string;
    hints?: boolean;
    sim?: SimOptions;
    world?: World;
    recorded?: Transcript;
  } = {},
) {
  const sim = createSimProvider(o.sim);
  const access = diskAccess(materializeWorld(o.world ?? c.world!, c.id));
  open.push(access);
  let n = 0;
  const call = (r: ModelRequestInput) =>
    sim.generate({ ...r, model: 'sim-large', seed: `1/${c.id}/${o.rep ?? 0}/act#${n++}` });
  const hints =
    o.hints === false
      ? { caseId: c.id, assertions: [], reference: { facts: [], caveats: [] } }
      : simHintsOf(c);
  return runSourceLoop({
    recorded: o.recorded ?? c.source,
    tools: createWorldTools(access),
    budget: o.budget ?? 12,
    notice: o.notice,
    call,
    sim: hints,
  });
}

const callsOf = (t: Transcript) =>
  t.messages.flatMap((m) => m.toolCalls ?? []).map((c) => ({ name: c.name, input: c.input }));
const report = (t: Transcript) => t.messages.at(-1)!.text!;

describe('the sim tool policy', () => {
  it('chooses every call from its context alone: the same calls with the case labels and reference taken away', async () => {
    for (const c of cases.slice(0, 8))
      for (const rep of [0, 1]) {
        const labelled = await live(c, { rep });
        const blind = await live(c, { rep, hints: false });
        expect(callsOf(blind.transcript), c.id).toEqual(callsOf(labelled.transcript));
        expect(callsOf(labelled.transcript).length).toBeGreaterThanOrEqual(3);
      }
  });

  it('starts from what the brief names and reads what results reveal (the adapter that falls back)', async () => {
    const c = cases[0]!;
    const out = await live(c);
    const calls = callsOf(out.transcript);
    const header = /anything else that sends the ([\w-]+) header/.exec(c.source.messages[0]!.text!)![1]!;
    expect(calls.slice(0, 3)).toEqual([
      { name: 'search_code', input: { query: '2023-10' } },
      { name: 'search_code', input: { query: header } },
      { name: 'query', input: { sql: 'SELECT * FROM merchant_config ORDER BY merchant_id' } },
    ]);
    const fallback = c.tags!.find((t) => t.startsWith('fallback:'))!.slice('fallback:'.length);
    // Across reps the fallback adapter is read in most (revealed leads are followed with p = 0.85).
    let read = 0;
    for (let rep = 0; rep < 10; rep++)
      if (
        callsOf((await live(c, { rep })).transcript).some(
          (x) => (x.input as { path?: string }).path === `adapters/${fallback}.ts`,
        )
      )
        read++;
    expect(read).toBeGreaterThanOrEqual(6);
    expect(out.budgetExhausted).toBe(false);
    expect(report(out.transcript)).toMatch(/^Findings:/);
  });

  describe('a brief in plain words is searched for its subject (B6)', () => {
    const plain = (brief: string): Case => ({
      ...cases[0]!,
      id: 'plain-brief',
      source: { agents: { child: { role: 'child' } }, messages: [{ role: 'user', text: brief }] },
      assertions: [],
    });
    const world: World = {
      files: {
        'services/billing.ts':
          "import { Acme } from './acme';\n// Falls back to the default Acme timeout when none is configured.\nexport const timeout = Acme.timeout ?? DEFAULT_TIMEOUT;\n",
        'services/acme.ts': 'export const Acme = { timeout: 30 };\n',
      },
    };

    it('searches its proper names in any case and the risk words it uses, then reads what they reveal', async () => {
      const c = plain(
        'Go through the services: how each picks the Acme timeout, and any fallback or default path.',
      );
      const calls = callsOf((await live(c, { world })).transcript);
      expect(calls.slice(0, 2)).toEqual([
        { name: 'search_code', input: { query: 'Acme|acme|ACME' } },
        { name: 'search_code', input: { query: 'fallback|default' } },
      ]);
      expect(calls).toContainEqual({ name: 'read_file', input: { path: 'services/billing.ts' } });
    });

    it('only when the brief names nothing exact: a named term keeps the brief-term searches alone', async () => {
      const c = plain('Where is `ACME_TIMEOUT` set for the Acme client, and is there a fallback?');
      const calls = callsOf((await live(c, { world })).transcript);
      expect(calls[0]).toEqual({ name: 'search_code', input: { query: 'ACME_TIMEOUT' } });
      expect(calls).not.toContainEqual({ name: 'search_code', input: { query: 'Acme|acme|ACME' } });
    });

    it('a sentence-opening capital is not a name; a brief with neither names nor risk words makes no call', async () => {
      const c = plain('Summarise what the team decided. Nothing else.');
      expect(callsOf((await live(c, { world })).transcript)).toEqual([]);
    });

    it('multi-child: every live child researches (none reports without a call), and four transcripts dwarf their final reports', async () => {
      const [mc] = await loadSuites(join(repoRoot, 'cases'), [{ id: 'multi-child' }]);
      for (const c of mc!.cases.filter((x) => x.world).slice(0, 3)) {
        let transcriptChars = 0;
        let reportChars = 0;
        for (const recorded of c.sources!) {
          const out = await live(c, { recorded });
          expect(out.toolCalls, `${c.id} ${recorded.id}`).toBeGreaterThan(0);
          transcriptChars += JSON.stringify(out.transcript.messages).length;
          reportChars += report(out.transcript).length;
        }
        // The seed's situation: four transcripts ≈ 112k tokens against merged returns of ≈ 5k.
        expect(transcriptChars, c.id).toBeGreaterThan(10 * reportChars);
      }
    });
  });

  it('is seeded: the same session gives the same calls; reps differ somewhere', async () => {
    const c = cases[1]!;
    expect(callsOf((await live(c, { rep: 3 })).transcript)).toEqual(
      callsOf((await live(c, { rep: 3 })).transcript),
    );
    const seqs = new Set<string>();
    for (let rep = 0; rep < 8; rep++) seqs.add(JSON.stringify(callsOf((await live(c, { rep })).transcript)));
    expect(seqs.size).toBeGreaterThan(1);
  });

  it('told it must fill coverage.not_searched, takes exactly one more look with the documented probability (0.7)', async () => {
    let extra = 0;
    let n = 0;
    for (const c of cases)
      for (const rep of [0, 1, 2]) {
        const base = callsOf((await live(c, { rep })).transcript);
        const told = callsOf((await live(c, { rep, notice: contractNotice })).transcript);
        // The same investigation, then at most one more call.
        expect(told.slice(0, base.length), c.id).toEqual(base);
        expect(told.length - base.length).toBeLessThanOrEqual(1);
        extra += told.length - base.length;
        n++;
      }
    expect(defaultLiveRates.extraLookWithCoverage).toBe(0.7);
    // 90 cells: a binomial(90, 0.7) share lies in [0.55, 0.85] with overwhelming probability.
    expect(extra / n).toBeGreaterThan(0.55);
    expect(extra / n).toBeLessThan(0.85);
    const never = { sim: { sizes: { large: { live: { extraLookWithCoverage: 0 } } } } };
    const always = { sim: { sizes: { large: { live: { extraLookWithCoverage: 1 } } } } };
    const c = cases[2]!;
    const base = callsOf((await live(c)).transcript).length;
    expect(callsOf((await live(c, { notice: contractNotice, ...never })).transcript)).toHaveLength(base);
    expect(callsOf((await live(c, { notice: contractNotice, ...always })).transcript)).toHaveLength(base + 1);
  }, 300_000); // 180 source loops (the bound needs the 90 cells): 80–175 s on this machine under load

  it('a budget too small for its leads: the loop stops it, and the report says so and states less', async () => {
    const c = cases[3]!;
    const full = await live(c);
    const cut = await live(c, { budget: 2 });
    expect(cut).toMatchObject({ toolCalls: 2, budgetExhausted: true });
    expect(cut.refused).toBeGreaterThanOrEqual(1);
    expect(report(cut.transcript)).toContain('I ran out of tool calls before I was done');
    const stated = (t: Transcript) =>
      c.assertions.filter((a) => readClaim(indexText(report(t)), a).present).length;
    expect(stated(cut.transcript)).toBeLessThan(stated(full.transcript));
    expect(report(full.transcript)).not.toContain('ran out of tool calls');
  });

  it('states a claim only when its own calls reached its provenance', async () => {
    const c: Case = {
      ...cases[0]!,
      id: 'tiny',
      source: {
        agents: { child: { role: 'child' } },
        messages: [{ role: 'user', text: 'Where is `LEGACY_MODE` decided? Look under config/.' }],
      },
      assertions: [
        {
          id: 'seen',
          kind: 'confident',
          statement: 'LEGACY_MODE falls back to the default (config/flags.ts:2).',
          claim: 'LEGACY_MODE falls back to the default (config/flags.ts:2).',
          cues: ['legacy_mode falls back'],
          provenance: ['config/flags.ts:2'],
        },
        {
          id: 'unseen',
          kind: 'confident',
          statement: 'The override lives in ops/override.ts:1.',
          claim: 'The override lives in ops/override.ts:1.',
          cues: ['override lives'],
          provenance: ['ops/override.ts:1'],
        },
      ],
    };
    const world: World = {
      files: {
        'config/flags.ts':
          "export const flags = {};\nexport const LEGACY_MODE = process.env.LEGACY ?? 'default';\n",
        'ops/override.ts': 'export const override = true;\n',
      },
    };
    const out = await live(c, { world });
    expect(callsOf(out.transcript)).toEqual([
      { name: 'search_code', input: { query: 'LEGACY_MODE' } },
      { name: 'read_file', input: { path: 'config/flags.ts' } },
    ]);
    const text = report(out.transcript);
    expect(readClaim(indexText(text), c.assertions[0]!).present).toBe(true);
    expect(readClaim(indexText(text), c.assertions[1]!).present).toBe(false);
    expect(text).not.toContain('ops/override.ts:1');
    expect(text).toMatch(/Not searched: .*the deploy environment \(LEGACY\)/);
  });
  describe('states only what its own tool results support (issue 29 item 4)', () => {
    const tiny = (assertions: Case['assertions']): Case => ({
      ...cases[0]!,
      id: 'tiny-2',
      source: {
        agents: { child: { role: 'child' } },
        messages: [{ role: 'user', text: 'Where is `LEGACY_MODE` decided? Look under config/.' }],
      },
      assertions,
    });
    const world: World = {
      files: {
        'config/flags.ts':
          "// LEGACY is set per deploy environment.\nexport const LEGACY_MODE = process.env.LEGACY ?? 'default';\n",
      },
    };
    const ownHedge = {
      id: 'own',
      kind: 'hedged' as const,
      statement: 'I could not determine whether the LEGACY flag is set per deploy environment.',
      claim: 'the LEGACY flag is set per deploy environment',
      cues: ['legacy flag is set'],
      qualifierCues: ['could not determine'],
    };
    const otherChilds = {
      id: 'other',
      kind: 'hedged' as const,
      statement: 'I could not determine whether the snapshot matches the live table.',
      claim: 'the snapshot matches the live table',
      cues: ['snapshot matches the live table'],
      qualifierCues: ['could not determine'],
    };

    it("states a placeless caveat about what it read, never another child's about what it never saw", async () => {
      const c = tiny([ownHedge, otherChilds]);
      const text = report((await live(c, { world })).transcript);
      expect(readClaim(indexText(text), ownHedge)).toMatchObject({ present: true, qualified: true });
      expect(readClaim(indexText(text), otherChilds).present).toBe(false);
    });

    it('with no tool call that returned a result, states no claim at all', async () => {
      const c = tiny([ownHedge, otherChilds]);
      const out = await live(c, { world, budget: 0 });
      expect(out.toolCalls).toBe(0);
      const text = report(out.transcript);
      for (const a of c.assertions) expect(readClaim(indexText(text), a).present).toBe(false);
      expect(text).toContain('Nothing I can state with a source yet.');
    });
  });

  it('notes a grounded claim as it goes (noteWhenFound) and restates a noted one at the end only with probability restateNoted', async () => {
    const rates = (noteWhenFound: number, restateNoted: number) => ({
      sim: { sizes: { large: { live: { noteWhenFound, restateNoted } } } },
    });
    const midText = (t: Transcript) =>
      t.messages
        .slice(0, -1)
        .filter((m) => m.role === 'assistant')
        .map((m) => m.text ?? '')
        .join('\n');
    let noted = 0;
    let restated = 0;
    for (const c of cases.slice(0, 6)) {
      const quiet = await live(c, rates(0, 1));
      const loud = await live(c, rates(1, 0));
      const echo = await live(c, rates(1, 1));
      // Noting changes what it says, never what it does.
      const calls = (t: Transcript) => t.messages.flatMap((m) => m.toolCalls ?? []).map((x) => x.name);
      expect(calls(loud.transcript)).toEqual(calls(quiet.transcript));
      for (const a of c.assertions) {
        const inQuietReport = readClaim(indexText(report(quiet.transcript)), a).present;
        expect(readClaim(indexText(midText(quiet.transcript)), a).present).toBe(false);
        if (!inQuietReport) continue;
        // What the quiet source reports, the loud one said mid-research and not again at the end —
        // unless its last results grounded it, when there were no more calls to say it beside.
        const mid = readClaim(indexText(midText(loud.transcript)), a).present;
        expect(readClaim(indexText(report(loud.transcript)), a).present).toBe(!mid);
        expect(readClaim(indexText(report(echo.transcript)), a).present).toBe(true);
        if (mid) noted++;
      }
      const byDefault = await live(c);
      for (const a of c.assertions)
        if (readClaim(indexText(midText(byDefault.transcript)), a).present)
          restated += readClaim(indexText(report(byDefault.transcript)), a).present ? 1 : 0;
    }
    expect(noted).toBeGreaterThan(20);
    expect(restated).toBeGreaterThan(0);
  });
});
