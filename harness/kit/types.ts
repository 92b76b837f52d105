import { join } from 'node:path';
import type { Strategy } from '../core/index.ts';
import type { SimOptions } from '../providers/sim/index.ts';
import { packageRoot } from '../version.ts';

// What the strategy kit takes and reports, apart from the code, so the kit's modules import it from
// here and not from check-strategy.ts (which loads them on first use).

/** The real transcripts shipped with handoff-eval (licences in their LICENSES.md). */
export const shippedTranscripts = join(packageRoot, 'test', 'fixtures', 'transcripts');
/** The shipped suites. */
export const shippedCases = join(packageRoot, 'cases');

/**
 * The strategy test kit: the invariants every reference strategy is held to, runnable on any
 * strategy — a user's from its own file, a registered one by name. Every input is a real transcript
 * shipped with handoff-eval, a case of the shipped suites (or the given ones), or a generated session,
 * handed over in each direction at a roomy and a tight budget; model calls go to the deterministic sim.
 *
 * - `prepares`: prepare() returns a handoff (a HarnessError such as SubagentContractError is an
 *   outcome a run records as an error row, counted apart; any other exception is a failure);
 * - `pairing`: no tool call split from its result, no result without its call;
 * - `markers`: every recorded marker is where the receiver sees it, and a number in it is the amount cut;
 * - `cuts-marked` (unless the strategy declares `marksCuts: false`): a source tool result or assistant
 *   message shown only in part is followed, in the same message, by a recorded marker;
 * - `stats`: every HandoffStats field matches the payload, the messages and the model calls made;
 * - `same-inputs`: the same inputs (case, params, budget, rep, seed) give the same handoff;
 * - `deterministic` (strategies declaring `deterministic: true`): no model call, the same handoff at every rep;
 * - `tools-served`: tools given to the receiver are served by `runTool`, which answers any call with text;
 * - `superset` / `retention` (when declared): what the receiver sees carries the source, or what the
 *   retention plan retains of it, at an unlimited budget.
 */
export type InvariantName =
  | 'prepares'
  | 'pairing'
  | 'markers'
  | 'cuts-marked'
  | 'stats'
  | 'same-inputs'
  | 'deterministic'
  | 'tools-served'
  | 'superset'
  | 'retention';

export const invariantNames: readonly InvariantName[] = [
  'prepares',
  'pairing',
  'markers',
  'cuts-marked',
  'stats',
  'same-inputs',
  'deterministic',
  'tools-served',
  'superset',
  'retention',
];

/**
 * What checkStrategy runs over: params and their variants, the inputs (real transcripts, suite case dirs,
 * generated sessions), the seed and the budgets.
 */
export interface CheckOptions {
  /** The strategy's params (typed, or strings as on the CLI). @default its defaults, then each other enum/boolean value one at a time */
  params?: Record<string, unknown>;
  /** Also run each other value of every enum and boolean param, one at a time (when `params` is not given). @default true */
  variants?: boolean;
  /** Files or folders of real transcripts (any importable format). `false`: none. @default the ones shipped with handoff-eval */
  transcripts?: string[] | false;
  /** Cases directories whose suites' cases are inputs. `false`: none. @default the shipped cases/ */
  casesDirs?: string[] | false;
  /** Generated sessions. @default 12 */
  generated?: number;
  /** Seed of the generated sessions and of every model call. @default 1 */
  seed?: number;
  /** The receiver budgets (tokens) every input is handed over at. @default [200000, 6000] */
  budgets?: number[];
  /** Strategies a config defines, for a strategy given by name. @default {} */
  strategies?: Record<string, Strategy<any>>;
  /** Sim rates for model-backed strategies. @default {} */
  sim?: SimOptions;
  /** Stop after this many failures. @default 100 */
  maxFailures?: number;
}

/** One broken invariant, with the input it broke on and the offending message. */
export interface CheckFailure {
  invariant: InvariantName;
  /** The params the strategy ran with. */
  params: Record<string, unknown>;
  /** Which input: the transcript or case, the direction, the budget. */
  input: string;
  /** The offending message: in the handoff the receiver sees (`system` is the system prompt) or in the source. */
  message?: { in: 'handoff' | 'source'; index: number | 'system'; excerpt: string };
  detail: string;
}

/**
 * What checkStrategy found: the variants and inputs checked, the count per invariant, and every failure with
 * its input and offending message.
 */
export interface CheckReport {
  strategy: string;
  /** Each params variant run. */
  variants: Record<string, unknown>[];
  /** Handoffs built and checked. */
  handoffs: number;
  /** Inputs (transcripts, cases, generated sessions) by kind. */
  inputs: { transcripts: number; cases: number; generated: number };
  /** How many times each invariant was checked. */
  checked: Record<InvariantName, number>;
  /** Inputs on which prepare() raised a HarnessError (an error row in a run), not counted as failures. */
  errored: { input: string; params: Record<string, unknown>; error: string }[];
  failures: CheckFailure[];
  /**
   * Invariants the strategy declares it breaks by design (`Strategy.declares`), with the reason: not
   * checked, not counted as passed. @default {}
   */
  declared: Partial<Record<InvariantName, string>>;
  passed: boolean;
}
