import type { ArmSummary, Comparison, Summary, SuiteSummary } from '../../reports/summary/types.ts';
import type { AssertionKind } from '../core/index.ts';

/** Formatting and lookup helpers the README figures share. */

/** One figure README.md quotes; see figures.ts. */
export interface ReadmeFigure {
  /** A text that identifies the README line (a table row's first cell, a sentence of the prose). */
  anchor: string;
  /** The quoted text, {slot} where a figure goes. */
  template: string;
  /** For a table row: the column (1-based) the template is in; else the whole line. */
  column?: number;
  /** Each slot's value as the README writes it. */
  values: Record<string, string>;
}

export type Stage = 'payload' | 'answer';
export type Location = 'final_message' | 'mid_transcript' | 'tool_result_only';
export const CAVEATS = ['hedged', 'assumption', 'unresolved'] as const;
export const KINDS = ['confident', ...CAVEATS] as const;

/** 21,609 */
export const int = (x: number | null) => (x === null ? '–' : Math.round(x).toLocaleString('en-US'));
/** 97% */
export const pct = (x: number | null) => (x === null ? '–' : `${Math.round(100 * x)}%`);
/** +0.01, −1.29, 0.00 (the README's minus sign) */
export const signed = (x: number, digits = 2) => {
  const s = Math.abs(x).toFixed(digits);
  if (Number(s) === 0) return (0).toFixed(digits);
  return `${x < 0 ? '\u2212' : '+'}${s}`;
};
/** −1.60 (no plus sign: an interval end) */
export const num = (x: number, digits = 2) => {
  const s = Math.abs(x).toFixed(digits);
  return Number(s) === 0 ? (0).toFixed(digits) : `${x < 0 ? '\u2212' : ''}${s}`;
};
/** better / worse / noise */
export const verdict = (c: Comparison) =>
  c.verdict === 'better' || c.verdict === 'worse' ? c.verdict : 'noise';
export const ratio = (a: number, n: number) => `${a}/${n}`;

export function suiteOf(s: Summary, id: string): SuiteSummary {
  const suite = s.suites.find((x) => x.suite === id);
  if (!suite) throw new Error(`the run has no suite "${id}" (the README quotes it)`);
  return suite;
}

export function armOf(suite: SuiteSummary, name: string): ArmSummary {
  const arm = suite.arms.find((a) => a.arm === name);
  if (!arm) throw new Error(`suite ${suite.suite} has no arm "${name}" (the README quotes it)`);
  return arm;
}

export function vs(arm: ArmSummary, criterion: string): Comparison {
  const c = arm.scores[criterion]?.vsBaseline;
  if (!c || c.diff === null) throw new Error(`${arm.arm}: no comparison on ${criterion}`);
  return c;
}

/** Kept / total over the given kinds and locations of one stage. */
export function pooled(
  arm: ArmSummary,
  stage: Stage,
  kinds: readonly AssertionKind[],
  locations: readonly Location[],
) {
  let kept = 0;
  let total = 0;
  for (const k of kinds)
    for (const l of locations) {
      const c = arm.survivalByLocation[stage][k]?.[l];
      kept += c?.kept ?? 0;
      total += c?.total ?? 0;
    }
  return total ? kept / total : 0;
}

export const failed = (arm: ArmSummary, check: string) => arm.checks[check]?.failed ?? 0;
export const checked = (arm: ArmSummary, check: string) => arm.checks[check]?.n ?? 0;
export const passOf = (arm: ArmSummary) => ({ passed: arm.pass?.passed ?? 0, n: arm.pass?.n ?? 0 });
export const latencyDelta = (arm: ArmSummary) => signed((arm.latency.p50DeltaVsBaselineMs ?? 0) / 1000, 1);
