import type { Assertion, ClaimLocation, ReferenceFact } from '../../harness/core/index.ts';
import type { GroundTruth, LedgerWorld } from './world.ts';
import { RETIRING } from './world.ts';
import { adapterPath, changelogPath } from './repo.ts';
import {
  asideLine,
  asideRemark,
  hedgeTopics,
  openQuestion,
  repoNotes,
  type Note,
  type Placement,
} from './placement.ts';
import { assumption, confidentFindings, conf, hedge, unresolved } from './claims.ts';

/**
 * The child's labelled findings, derived from the world: what it can state with provenance, what it
 * could not determine, what it assumed, what it leaves open — and, by the case's placement, where it
 * says each: in its final report (one statement per line), once between two tool calls (a remark,
 * never restated), or nowhere, because the claim is only in a file it read (a colleague's note).
 */
export interface Findings {
  /** Final-report findings and caveats, in report order. */
  confident: Assertion[];
  caveats: Assertion[];
  /** Remarks the child makes between tool calls, by the step they follow. */
  remarks: Remark[];
  /** Every labelled assertion, wherever it is. */
  all: Assertion[];
  facts: ReferenceFact[];
  coverage: { searched: string[]; notSearched: string[] };
}

/** Where in the session a remark is said: after the changelog, in the table notes, after the adapters, before the last read. */
export type RemarkSlot = 'changelog' | 'table' | 'adapters' | 'last';

export interface Remark {
  slot: RemarkSlot;
  text: string;
}

export function findings(
  w: LedgerWorld,
  t: GroundTruth,
  files: Record<string, string>,
  place: Placement,
): Findings {
  const fbFile = adapterPath(w.fallbackAdapter);
  const sandboxIds = w.merchants.filter((m) => m.adapter === 'sandbox').map((m) => m.id);
  const caveats = hedgeTopics(w).map((topic) => hedge(w, topic, files, sandboxIds));
  caveats.push(assumption(w, fbFile), unresolved(w));
  const located = locate(w, place, confidentFindings(w, t, files), caveats);
  return {
    ...located,
    facts: facts(w, t, fbFile, sandboxIds),
    coverage: coverage(w),
  };
}

/**
 * Puts each claim where the placement says: final-report claims stay in the report lists; a
 * mid-transcript claim becomes a remark (and leaves the report); a tool-result-only claim leaves the
 * report for the colleague's note repo.ts wrote into a file (its label is the note's sentence).
 */
function locate(w: LedgerWorld, place: Placement, confident: Assertion[], caveats: Assertion[]) {
  const notes = repoNotes(w, place);
  const noteFor = [notes.registry, notes.edgeRouting, notes.settlement, notes.merchantConfig, notes.fallback];
  const remarks: Remark[] = [];
  const moved: Assertion[] = [];
  const rotating = (a: Assertion): ClaimLocation | undefined => {
    if (a.kind === 'hedged') return a.id === place.hedgeTopic ? place.hedge : undefined;
    return a.kind === 'assumption'
      ? place.assumption
      : a.kind === 'unresolved'
        ? place.unresolved
        : undefined;
  };
  const report: Assertion[] = [];
  for (const a of caveats) {
    const where = rotating(a) ?? 'final_message';
    if (where === 'final_message') report.push({ ...a, location: where });
    else if (where === 'mid_transcript') {
      remarks.push({ slot: remarkSlot(w, a), text: a.statement });
      moved.push({ ...a, location: where });
    } else {
      const note = [...noteFor, ...(notes.changelog ?? [])].find((n) => n && sameTopic(n, a))!;
      moved.push(noteAssertion(a, note));
    }
  }
  const aside =
    place.aside === 'mid_transcript'
      ? conf('aside-webhooks', asideRemark.statement, asideRemark.cues, [], 'mid_transcript')
      : conf('aside-test-mode', asideLine.statement, asideLine.cues, [changelogPath(w)], 'tool_result_only');
  if (place.aside === 'mid_transcript') remarks.push({ slot: 'changelog', text: aside.statement });
  const finals = confident.map((a) => ({ ...a, location: 'final_message' as const }));
  return { confident: finals, caveats: report, remarks, all: [...finals, aside, ...report, ...moved] };
}

/** A note stands for the claim whose cues it carries (each topic's note is written with that claim's cues). */
function sameTopic(n: Note, a: Assertion): boolean {
  return n.cues.join('|') === a.cues.join('|');
}

function noteAssertion(a: Assertion, n: Note): Assertion {
  return {
    id: a.id,
    kind: a.kind,
    statement: n.statement,
    claim: n.claim,
    cues: n.cues,
    ...(n.qualifierCues ? { qualifierCues: n.qualifierCues } : {}),
    ...(a.provenance ? { provenance: a.provenance } : {}),
    location: 'tool_result_only',
  };
}

/** Where the child would say it, had it said it in passing: right after reading what raised it. */
function remarkSlot(w: LedgerWorld, a: Assertion): RemarkSlot {
  if (a.kind === 'assumption')
    return w.assumption === 'column' ? 'table' : w.assumption === 'region' ? 'changelog' : 'adapters';
  if (a.kind === 'unresolved') return openQuestion(w) === 'grace' ? 'changelog' : 'last';
  return 'last';
}

function facts(w: LedgerWorld, t: GroundTruth, fbFile: string, sandboxIds: string[]): ReferenceFact[] {
  const out: ReferenceFact[] = [
    {
      id: 'f-direct',
      text: `${t.direct.length} merchants pin 2023-10 directly: ${t.direct.join(', ')}`,
      cues: [`${t.direct.length} merchants`, 'pin 2023-10'],
    },
    {
      id: 'f-indirect',
      text: `${t.indirect.length} more merchants are affected indirectly through the fallback in ${fbFile}: ${t.indirect.join(', ')}`,
      cues: ['indirectly', fbFile],
    },
    {
      id: 'f-total',
      text: `In total ${t.affected.length} merchants are affected: ${t.affected.join(', ')}`,
      cues: ['in total', `${t.affected.length} merchants`],
    },
    { id: 'f-date', text: `2023-10 is retired on ${w.retirementDate}`, cues: ['2023-10', w.retirementDate] },
  ];
  if (w.sandbox.readable) {
    const verdict = w.sandbox.pin === RETIRING ? 'affected as well' : 'not affected';
    out.push({
      id: 'f-sandbox',
      text: `The sandbox adapter always sends ${w.sandbox.pin}, so the sandbox merchants (${sandboxIds.join(', ')}) are ${verdict}`,
      cues: ['sandbox adapter', 'always sends'],
    });
  }
  return out;
}

function coverage(w: LedgerWorld): Findings['coverage'] {
  const notSearched = ['the infra repository', "the deploy environment's variables"];
  if (!w.sandbox.readable) notSearched.push('@ledgerline/sandbox-adapter (not vendored)');
  notSearched.push('webhook handlers');
  return {
    searched: [
      'adapters/',
      `lib/${w.provider.slug}/`,
      'db/migrations/',
      'test/fixtures/',
      'the vendored changelog',
      'merchant_config',
    ],
    notSearched,
  };
}
