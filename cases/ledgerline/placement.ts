import type { ClaimLocation } from '../../harness/core/index.ts';
import type { LedgerWorld } from './world.ts';
import { RETIRING } from './world.ts';

/**
 * Where each of a case's rotating claims sits (issue 14): the child's final report, a remark it made
 * once between two tool calls and never restated, or a line in a file it read and never mentioned.
 * The rotation is by case index — not by chance — so over the 30 cases every kind × location
 * combination occurs in 10 of them (confident: 15 mid-transcript, 15 tool-result-only, all final).
 * The world decides what the caveats are about; the placement decides only where they are said.
 */
export type ChildLocation = Extract<ClaimLocation, 'final_message' | 'mid_transcript' | 'tool_result_only'>;

const ROTATION: readonly ChildLocation[] = ['final_message', 'mid_transcript', 'tool_result_only'];

export type HedgeTopic = 'sandbox-pin' | 'edge-proxy' | 'batch-version';

export interface Placement {
  /** The hedge that rotates (the world's other hedges stay in the final report). */
  hedgeTopic: HedgeTopic;
  hedge: ChildLocation;
  assumption: ChildLocation;
  unresolved: ChildLocation;
  /** The confident aside: a remark between calls, or a changelog line the child never repeats. */
  aside: Exclude<ChildLocation, 'final_message'>;
}

/** What the child cannot know in this world, in a stable order. */
export function hedgeTopics(w: LedgerWorld): HedgeTopic[] {
  const out: HedgeTopic[] = [];
  if (!w.sandbox.readable) out.push('sandbox-pin');
  if (w.gatewayRegion) out.push('edge-proxy');
  if (w.batchJob) out.push('batch-version');
  return out;
}

export function placementFor(w: LedgerWorld): Placement {
  const i = w.index;
  const topics = hedgeTopics(w);
  return {
    hedgeTopic: topics[Math.floor(i / 3) % topics.length]!,
    hedge: ROTATION[i % 3]!,
    assumption: ROTATION[(i + 1) % 3]!,
    unresolved: ROTATION[(i + 2) % 3]!,
    aside: i % 2 === 0 ? 'mid_transcript' : 'tool_result_only',
  };
}

/** The open question a world raises: the grace period when there is one to ask about, else the sandbox notice. */
export function openQuestion(w: LedgerWorld): 'grace' | 'notify-sandbox' {
  return w.unresolved === 'grace' && w.graceDays > 0 ? 'grace' : 'notify-sandbox';
}

/**
 * A tool-result-only claim: the sentence as a colleague wrote it into a file the child reads (its
 * statement), the bare proposition, and how to recognise both. Files render it as a comment or a
 * quoted note; the sentence itself is verbatim on one line.
 */
export interface Note {
  statement: string;
  claim: string;
  cues: string[];
  qualifierCues?: string[];
}

/** Notes by the file slot they go into (repo.ts places them). */
export interface RepoNotes {
  /** Replaces the registry's comment on the unvendored sandbox package. */
  registry?: Note;
  /** A line at the top of the registry (adapters/index.ts). */
  registryHead?: Note;
  edgeRouting?: Note;
  settlement?: Note;
  merchantConfig?: Note;
  fallback?: Note;
  changelog?: Note[];
}

export const HEDGE_Q = [
  'could not determine',
  'could not confirm',
  'unclear',
  'unknown',
  'not verified',
  'unverified',
  'cannot tell',
];
export const ASSUME_Q = ['assuming', 'assumption', 'assumed', 'provided that'];
export const OPEN_Q = ['unresolved', 'open question', 'would settle it', 'not decided', 'undecided'];

/** The notes a placement puts into the repository: one per claim whose location is tool_result_only. */
export function repoNotes(w: LedgerWorld, p: Placement): RepoNotes {
  const notes: RepoNotes = { changelog: [] };
  if (p.hedge === 'tool_result_only') Object.assign(notes, hedgeNote(w, p.hedgeTopic));
  if (p.assumption === 'tool_result_only') Object.assign(notes, assumptionNote(w));
  if (p.unresolved === 'tool_result_only') notes.changelog!.push(openNote(w));
  return notes;
}

function hedgeNote(w: LedgerWorld, topic: HedgeTopic): RepoNotes {
  const p = w.provider;
  if (topic === 'sandbox-pin')
    return {
      registry: {
        statement:
          'Unclear whether the sandbox adapter uses the same version pin as live traffic; the package is built by developer-experience and not vendored here.',
        claim: 'the sandbox adapter uses the same version pin as live traffic',
        cues: ['sandbox adapter', 'version pin'],
        qualifierCues: HEDGE_Q,
      },
    };
  if (topic === 'edge-proxy')
    return {
      edgeRouting: {
        statement: `Unverified: whether the ${w.gatewayRegion} edge proxy rewrites the ${p.header} header on the way out; nobody on payments has read the route rules.`,
        claim: `the ${w.gatewayRegion} edge proxy rewrites the ${p.header} header on the way out`,
        cues: ['edge proxy', 'rewrites'],
        qualifierCues: HEDGE_Q,
      },
    };
  return {
    settlement: {
      statement: `Not verified whether the settlement job sends ${RETIRING} in production: the value is set per environment in the deploy pipeline, and not every environment has been moved yet.`,
      claim: `the settlement job sends ${RETIRING} in production`,
      cues: ['settlement job', `sends ${RETIRING}`],
      qualifierCues: HEDGE_Q,
    },
  };
}

function assumptionNote(w: LedgerWorld): RepoNotes {
  if (w.assumption === 'fallback-trigger')
    return {
      fallback: {
        statement:
          'Assumed (never tested): the fallback only fires on version-negotiation errors, not on timeouts or 5xx responses.',
        claim: 'the fallback only fires on version-negotiation errors, not on timeouts or 5xx responses',
        cues: ['fallback', 'only fires on version-negotiation errors'],
        qualifierCues: ASSUME_Q,
      },
    };
  if (w.assumption === 'region')
    return {
      changelog: [
        {
          statement:
            'We are assuming the retirement date applies to every region; the provider has not published a regional schedule.',
          claim: 'the retirement date applies to every region',
          cues: ['retirement date', 'every region'],
          qualifierCues: ASSUME_Q,
        },
      ],
    };
  return {
    merchantConfig: {
      statement:
        'Assumption: the api_version column is authoritative and not overridden per request (nothing here sets a per-request version).',
      claim: 'the api_version column is authoritative and not overridden per request',
      cues: ['api_version column', 'authoritative'],
      qualifierCues: ASSUME_Q,
    },
  };
}

function openNote(w: LedgerWorld): Note {
  if (openQuestion(w) === 'grace') {
    const g = `${w.graceDays}-day grace period`;
    return {
      statement: `Open question (undecided): does ${w.provider.name} guarantee the ${g} after the retirement date? Would settle it: ${w.provider.name}'s account manager.`,
      claim: `${w.provider.name} guarantees the ${g} after the retirement date`,
      cues: ['guarantee', g],
      qualifierCues: OPEN_Q,
    };
  }
  return {
    statement:
      'Open question (undecided): should the sandbox merchants be notified at all when a version retires? Would settle it: the merchant-success owner of the sandbox program.',
    claim: 'the sandbox merchants should be notified when a version retires',
    cues: ['sandbox merchants', 'be notified'],
    qualifierCues: OPEN_Q,
  };
}

/** The confident aside as the child says it between calls (it reads the changelog's webhook paragraph). */
export const asideRemark = {
  statement:
    'Webhooks are a separate upgrade: each webhook endpoint is pinned in the provider dashboard, independent of merchant_config, and nothing in this repo shows those pins.',
  cues: ['webhook endpoint', 'pinned in the provider dashboard'],
};

/** The confident aside as a changelog line the child reads and never repeats. */
export const asideLine = {
  statement: `Sandbox: test mode retires ${RETIRING} on the same date.`,
  cues: ['test mode retires', 'same date'],
};
