import type { Assertion } from '../../harness/core/index.ts';
import {
  createWorld,
  groundTruth,
  RETIRING,
  type GroundTruth,
  type LedgerWorld,
  type Merchant,
} from '../ledgerline/world.ts';
import { repoFiles, adapterPath } from '../ledgerline/repo.ts';
import { TABLE_COLUMNS, tableRows } from '../ledgerline/child.ts';
import { SessionBuilder } from '../lib/session.ts';
import { Random } from '../lib/random.ts';
import { buildChildren, NONE_SEARCHED, type Shared } from './children.ts';
import { rows } from './child-session.ts';
import { multiNotes, noteAssertions } from './spread.ts';

const TODAY = '2025-09-26';

/**
 * The multi-child generator (seed: ledgerline, "a parent that spawns four and receives four
 * transcripts is holding 112k tokens"): one ledgerline world, four children on overlapping parts
 * of the question, two contradictions between them, and two things none of them searched.
 */
export function generate({ seed, count }: { seed: number; count: number }): unknown[] {
  return Array.from({ length: count }, (_, i) => multiCase(seed, i));
}

function multiCase(seed: number, index: number) {
  const w = createWorld(seed, 1000 + index);
  const r = new Random('multi-child', seed, index);
  const t = groundTruth(w);
  const files = repoFiles(w, seed, multiNotes());
  const { upgraded, snapshot } = snapshotDrift(w, r);
  const shared: Shared = { w, t, files, snapshot, upgradedToday: upgraded.map((m) => m.id) };
  const { transcript: parent, callId } = parentHistory(w.provider.name, w.retirementDate, index);
  const children = buildChildren(shared, `toolu_mc${index}`).map((c) => ({
    ...c,
    transcript: { ...c.transcript, meta: { spawnedBy: callId } },
  }));
  const assertions = [...children.flatMap((c) => c.assertions), ...noteAssertions(w)];
  return {
    id: `multi-${String(index + 1).padStart(2, '0')}`,
    title: `Four children on the ${w.provider.name} 2023-10 retirement (${t.affected.length} affected; snapshot off by ${upgraded.length})`,
    task: `All four research children have returned. Write the escalation answer: which merchants break when ${w.provider.name} retires 2023-10 on ${w.retirementDate}, with a source for each; where the children disagree, say so and say which source to trust; and say what none of them looked at.`,
    receiverHistory: parent,
    source: children[0]!.transcript,
    sources: children.map((c) => c.transcript),
    receiverAgent: 'escalation-agent',
    assertions,
    reference: multiReference(w, t, upgraded, assertions),
    world: {
      files,
      // The live table as the config child queried it, and last night's snapshot of it as the adapters
      // child queried it (today's upgrades still show 2023-10 there).
      tables: {
        merchant_config: { columns: TABLE_COLUMNS, rows: tableRows(w) },
        merchant_config_snapshot: { columns: TABLE_COLUMNS, rows: rows(snapshot) },
      },
    },
    tags: [
      `fallback:${w.fallbackAdapter}`,
      w.decoyAdapter ? 'decoy' : 'no-decoy',
      w.sandbox.readable ? 'sandbox:readable' : 'sandbox:unknowable',
      `snapshot-drift:${upgraded.length}`,
    ],
  };
}

/**
 * Last night's snapshot of merchant_config: two or three merchants upgraded today still show 2023-10
 * there (their live rows are stamped today).
 */
function snapshotDrift(w: LedgerWorld, r: Random) {
  const candidates = w.merchants.filter(
    (m) => m.adapter !== 'sandbox' && m.adapter !== w.fallbackAdapter && m.apiVersion === '2024-09',
  );
  const upgraded = r.sample(candidates, Math.min(candidates.length, r.int(2, 3)));
  const snapshot: Merchant[] = w.merchants.map((m) =>
    upgraded.includes(m) ? { ...m, apiVersion: RETIRING } : { ...m },
  );
  for (const m of upgraded) m.updatedAt = TODAY;
  return { upgraded, snapshot };
}

/** The facts, contradictions and blind spots the receiver's answer is judged against. */
function multiReference(w: LedgerWorld, t: GroundTruth, upgraded: Merchant[], assertions: Assertion[]) {
  const fb = adapterPath(w.fallbackAdapter);
  return {
    facts: [
      {
        id: 'f-direct',
        text: `${t.direct.length} merchants pin 2023-10 in the live table: ${t.direct.join(', ')}`,
        cues: [`${t.direct.length} merchants`, 'pin 2023-10'],
      },
      {
        id: 'f-indirect',
        text: `${t.indirect.length} more merchants are affected indirectly through the fallback in ${fb}: ${t.indirect.join(', ')}`,
        cues: ['indirectly', fb],
      },
      {
        id: 'f-date',
        text: `2023-10 is retired on ${w.retirementDate}`,
        cues: ['2023-10', w.retirementDate],
      },
    ],
    caveats: assertions.filter((a) => a.kind !== 'confident').map((a) => a.id),
    contradictions: [
      {
        between: ['c1-direct', 'c2-direct'],
        topic: `how many merchants pin 2023-10: the live table vs last night's snapshot (${upgraded.map((m) => m.id).join(', ')} upgraded today)`,
      },
      {
        between: ['c2-indirect', 'c4-fallback'],
        topic: `whether any adapter falls back to 2023-10 (${fb} does; the callers child only read ${w.decoyAdapter ? adapterPath(w.decoyAdapter) : 'an adapter without a fallback'})`,
      },
    ],
    notSearched: NONE_SEARCHED,
  };
}

function parentHistory(provider: string, date: string, index: number) {
  const s = new SessionBuilder('escalation-agent', 'parent', `toolu_mp${index}`, 'large');
  s.user(
    `${provider} retires API version 2023-10 on ${date}. Which of our merchants break? Merchant success needs a list with sources by tomorrow.`,
    'tier2',
  );
  const briefs = [
    ['config', 'Count the merchants pinned to 2023-10 in merchant_config and check how the column is used.'],
    [
      'adapters',
      `Go through the adapters: how each resolves the ${provider} version, any fallback or default path, and which merchants that affects.`,
    ],
    [
      'changelog',
      `Read the ${provider} changelog and anything about the sandbox: exact retirement terms, grace period, and whether test-mode merchants are affected.`,
    ],
    [
      'callers',
      `Find anything outside the adapters that calls ${provider} or picks a version (jobs, scripts, webhooks, proxies), and check the adapters' fallback behaviour.`,
    ],
  ];
  const [call] = s.pending(
    'This splits cleanly into four research questions; I will run them as four children in parallel and merge what they return.',
    {
      name: 'spawn_children',
      input: { children: briefs.map(([name, message]) => ({ task_name: name, message })) },
    },
  );
  return { transcript: s.build(`multi-${index}-parent`), callId: call!.id };
}
