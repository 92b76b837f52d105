import type { Assertion, ClaimLocation, ReferenceFact } from '../../harness/types.ts';
import type { GroundTruth, LedgerWorld } from './world.ts';
import { RETIRING } from './world.ts';
import { adapterPath, changelogPath } from './repo.ts';
import { lineOf } from '../lib/text.ts';
import {
  ASSUME_Q,
  asideLine,
  asideRemark,
  HEDGE_Q,
  hedgeTopics,
  OPEN_Q,
  openQuestion,
  repoNotes,
  type HedgeTopic,
  type Note,
  type Placement,
} from './placement.ts';

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
  const p = w.provider;
  const fbFile = adapterPath(w.fallbackAdapter);
  const fbLine = lineOf(files[fbFile]!, 'version = FALLBACK_API_VERSION;');
  const clFile = changelogPath(w);
  const clLine = lineOf(files[clFile]!, `will be retired on ${w.retirementDate}`);
  const sandboxIds = w.merchants.filter((m) => m.adapter === 'sandbox').map((m) => m.id);
  const ids = (xs: string[]) => xs.join(', ');
  const confident: Assertion[] = [
    conf(
      'direct',
      `${t.direct.length} merchants pin 2023-10 directly (merchant_config.api_version): ${ids(t.direct)}.`,
      [`${t.direct.length} merchants`, 'pin 2023-10'],
      ['merchant_config.api_version'],
    ),
    conf(
      'indirect',
      `${t.indirect.length} more merchants are affected indirectly through the fallback in ${fbFile}: when merchant_config.api_version is missing or not in its SUPPORTED_VERSIONS it silently sends FALLBACK_API_VERSION = '2023-10' (${fbFile}:${fbLine}). They are ${ids(t.indirect)}.`,
      ['indirectly', fbFile],
      [`${fbFile}:${fbLine}`, 'merchant_config.adapter'],
    ),
    conf(
      'date',
      `${p.name} retires API version 2023-10 on ${w.retirementDate}; after that, requests pinned to it fail with HTTP 410 version_retired (${clFile}:${clLine}).`,
      [w.retirementDate, 'http 410'],
      [`${clFile}:${clLine}`],
    ),
  ];
  if (w.decoyAdapter) {
    const file = adapterPath(w.decoyAdapter);
    const line = lineOf(files[file]!, 'version = FALLBACK_API_VERSION;');
    confident.push(
      conf(
        'decoy',
        `${file} also falls back on negotiation errors, but to 2024-09, which is not being retired, so it adds no affected merchants (${file}:${line}).`,
        [file, 'not being retired'],
        [`${file}:${line}`],
      ),
    );
  }
  if (w.sandbox.readable) {
    const line = lineOf(files['adapters/sandbox.ts']!, 'const SANDBOX_API_VERSION');
    const effect = w.sandbox.pin === RETIRING ? 'affected as well' : 'not affected';
    confident.push(
      conf(
        'sandbox',
        `The sandbox adapter ignores merchant_config and always sends ${w.sandbox.pin} (adapters/sandbox.ts:${line}), so the ${sandboxIds.length} sandbox merchants (${ids(sandboxIds)}) are ${effect}.`,
        ['sandbox adapter', 'always sends'],
        [`adapters/sandbox.ts:${line}`],
      ),
    );
  }
  confident.push(
    conf(
      'total',
      `In total ${t.affected.length} merchants need to move off 2023-10 before ${w.retirementDate}.`,
      ['in total', `${t.affected.length} merchants`],
      ['merchant_config.api_version', `${fbFile}:${fbLine}`],
    ),
  );

  const caveats = hedgeTopics(w).map((topic) => hedge(w, topic, files, sandboxIds));
  caveats.push(assumption(w, fbFile), unresolved(w));
  const located = locate(w, place, confident, caveats);
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

function hedge(
  w: LedgerWorld,
  topic: HedgeTopic,
  files: Record<string, string>,
  sandboxIds: string[],
): Assertion {
  const p = w.provider;
  const ids = sandboxIds.join(', ');
  if (topic === 'sandbox-pin')
    return qual(
      'hedged',
      'sandbox-pin',
      `I could not determine whether the sandbox adapter uses the same version pin: it is imported from @ledgerline/sandbox-adapter, which is not vendored in this repo, so the ${sandboxIds.length} sandbox merchants (${ids}) may or may not be affected.`,
      'the sandbox adapter uses the same version pin',
      ['sandbox adapter', 'version pin'],
      HEDGE_Q,
      ['adapters/index.ts'],
    );
  if (topic === 'edge-proxy')
    return qual(
      'hedged',
      'edge-proxy',
      `I could not determine whether the ${w.gatewayRegion} edge proxy rewrites the ${p.header} header; its rules live in the infra repository (edge-proxy/routes/${p.slug}.yaml), which I cannot read.`,
      `the ${w.gatewayRegion} edge proxy rewrites the ${p.header} header`,
      ['edge proxy', 'rewrites'],
      HEDGE_Q,
      ['docs/architecture/edge-routing.md'],
    );
  const line = lineOf(files['jobs/settlement.ts']!, '_BATCH_VERSION as ApiVersion');
  return qual(
    'hedged',
    'batch-version',
    `I could not determine whether the nightly settlement job sends 2023-10: it reads ${p.envPrefix}_BATCH_VERSION from the deploy environment, which is not in the repo (jobs/settlement.ts:${line}).`,
    'the nightly settlement job sends 2023-10',
    ['settlement job', 'sends 2023-10'],
    HEDGE_Q,
    [`jobs/settlement.ts:${line}`],
  );
}

function assumption(w: LedgerWorld, fbFile: string): Assertion {
  switch (w.assumption) {
    case 'fallback-trigger':
      return qual(
        'assumption',
        'assume-trigger',
        `Assuming the fallback in ${fbFile} only fires on version-negotiation errors, as its comment says, and not on timeouts or 5xx responses.`,
        `the fallback in ${fbFile} only fires on version-negotiation errors, not on timeouts or 5xx responses`,
        ['fallback', 'only fires on version-negotiation errors'],
        ASSUME_Q,
      );
    case 'region':
      return qual(
        'assumption',
        'assume-region',
        'Assuming the retirement date applies to every region; the changelog gives a single date and no regional schedule.',
        'the retirement date applies to every region',
        ['retirement date', 'every region'],
        ASSUME_Q,
      );
    default:
      return qual(
        'assumption',
        'assume-column',
        'Assuming the api_version column is authoritative and not overridden per request.',
        'the api_version column is authoritative and not overridden per request',
        ['api_version column', 'authoritative'],
        ASSUME_Q,
      );
  }
}

function unresolved(w: LedgerWorld): Assertion {
  if (openQuestion(w) === 'grace') {
    const g = `${w.graceDays}-day grace period`;
    return qual(
      'unresolved',
      'open-grace',
      `Unresolved: does ${w.provider.name} guarantee the ${g} after ${w.retirementDate}? The changelog says requests "may continue to succeed" but not to rely on it. Would settle it: ${w.provider.name}'s account manager.`,
      `${w.provider.name} guarantees the ${g}`,
      ['guarantee', g],
      OPEN_Q,
    );
  }
  return qual(
    'unresolved',
    'open-notify',
    'Unresolved: should the sandbox merchants be notified at all, given they only send test traffic? Would settle it: the merchant-success owner of the sandbox program.',
    'the sandbox merchants should be notified',
    ['sandbox merchants', 'be notified'],
    OPEN_Q,
  );
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

function conf(
  id: string,
  statement: string,
  cues: string[],
  provenance: string[],
  location?: ClaimLocation,
): Assertion {
  return {
    id,
    kind: 'confident',
    statement,
    claim: statement,
    cues,
    ...(provenance.length ? { provenance } : {}),
    ...(location ? { location } : {}),
  };
}

function qual(
  kind: Assertion['kind'],
  id: string,
  statement: string,
  claim: string,
  cues: string[],
  qualifierCues: string[],
  provenance?: string[],
): Assertion {
  return { id, kind, statement, claim, cues, qualifierCues, ...(provenance ? { provenance } : {}) };
}
