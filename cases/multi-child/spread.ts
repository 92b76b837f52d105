import type { Assertion } from '../../harness/core/index.ts';
import type { LedgerWorld } from '../ledgerline/world.ts';
import { changelogPath } from '../ledgerline/repo.ts';
import {
  ASSUME_Q,
  asideLine,
  asideRemark,
  HEDGE_Q,
  OPEN_Q,
  type Note,
  type RepoNotes,
} from '../ledgerline/placement.ts';

/**
 * What every multi-child case carries besides its children's reports, so each kind × location
 * combination occurs in every case (six cases; the issue asks for at least five): one remark per kind
 * that a child makes once between tool calls and leaves out of its report, and one note per kind in a
 * file some child reads and none repeats. The children's reports supply the final-message claims.
 */
export type ChildName = 'config' | 'adapters' | 'changelog' | 'callers';

export interface MultiRemark {
  child: ChildName;
  /** Which of the child's steps it follows (index of its act, 0-based). */
  afterStep: number;
  assertion: Assertion;
}

const note = (n: Note, id: string, kind: Assertion['kind']): Assertion => ({
  id,
  kind,
  statement: n.statement,
  claim: n.claim,
  cues: n.cues,
  ...(n.qualifierCues ? { qualifierCues: n.qualifierCues } : {}),
  location: 'tool_result_only',
});

const partner: Note = {
  statement:
    'Unverified: whether merchants onboarded through the partner API bypass these adapters entirely; the partner gateway calls the provider itself.',
  claim: 'merchants onboarded through the partner API bypass these adapters entirely',
  cues: ['partner api', 'bypass these adapters'],
  qualifierCues: HEDGE_Q,
};

const region: Note = {
  statement:
    'We are assuming the retirement date applies to every region; the provider has not published a regional schedule.',
  claim: 'the retirement date applies to every region',
  cues: ['retirement date', 'every region'],
  qualifierCues: ASSUME_Q,
};

const notify: Note = {
  statement:
    'Open question (undecided): should the sandbox merchants be notified at all when a version retires? Would settle it: the merchant-success owner of the sandbox program.',
  claim: 'the sandbox merchants should be notified when a version retires',
  cues: ['sandbox merchants', 'be notified'],
  qualifierCues: OPEN_Q,
};

/** The notes the files carry (the changelog's quoted notes, a line atop the adapter registry). */
export function multiNotes(): RepoNotes {
  return { registryHead: partner, changelog: [region, notify] };
}

export function noteAssertions(w: LedgerWorld): Assertion[] {
  return [
    {
      id: 'n-test-mode',
      kind: 'confident',
      statement: asideLine.statement,
      claim: asideLine.statement,
      cues: asideLine.cues,
      provenance: [changelogPath(w)],
      location: 'tool_result_only',
    },
    note(partner, 'n-partner', 'hedged'),
    note(region, 'n-region', 'assumption'),
    note(notify, 'n-notify', 'unresolved'),
  ];
}

const mid = (
  id: string,
  kind: Assertion['kind'],
  statement: string,
  claim: string,
  cues: string[],
  q?: string[],
): Assertion => ({
  id,
  kind,
  statement,
  claim,
  cues,
  ...(q ? { qualifierCues: q } : {}),
  location: 'mid_transcript',
});

/** The remarks in passing, each said by the child that would have run into it. */
const remarks: readonly MultiRemark[] = [
  {
    child: 'changelog',
    afterStep: 0,
    assertion: mid('r-webhooks', 'confident', asideRemark.statement, asideRemark.statement, asideRemark.cues),
  },
  {
    child: 'callers',
    afterStep: 2,
    assertion: mid(
      'r-backfill',
      'hedged',
      'I could not determine whether scripts/backfill-api-version.ts has already been run against production; it rewrites empty api_version values.',
      'scripts/backfill-api-version.ts has already been run against production',
      ['backfill-api-version.ts', 'already been run'],
      HEDGE_Q,
    ),
  },
  {
    child: 'adapters',
    afterStep: 2,
    assertion: mid(
      'r-snapshot-refresh',
      'assumption',
      "Assuming the snapshot was refreshed after last night's config changes, it shows yesterday's pins.",
      "the snapshot was refreshed after last night's config changes",
      ['snapshot was refreshed after'],
      ASSUME_Q,
    ),
  },
  {
    child: 'config',
    afterStep: 1,
    assertion: mid(
      'r-empty-rows',
      'unresolved',
      'Unresolved: who owns the rows with an empty api_version? They follow the client default, so a default change would move them silently. Would settle it: Payments Platform.',
      'the rows with an empty api_version, which follow the client default, have an owner',
      ['empty api_version', 'follow the client default'],
      OPEN_Q,
    ),
  },
];

export function multiRemarks(): readonly MultiRemark[] {
  return remarks;
}
