import * as f from '../../reports/format.ts';
import type { PairedDifference } from '../../reports/stats/paired.ts';
import type { Comparison, RunSide, SuiteComparison, SurvivalSide, UsageMeans } from './types.ts';

/**
 * The comparison as tables of text, computed once: the Markdown, HTML and viewer pages render the
 * same cells (one way to write a number, reports/format.ts).
 */
export interface TextTable {
  title: string;
  headers: string[];
  rows: string[][];
  /** Column indexes that are numbers (right-aligned). */
  numeric: number[];
}

export function headerLines(c: Comparison): string[][] {
  const side = (label: string, s: RunSide): string[] => [
    label,
    s.id + (s.inProgress ? ' (in progress)' : ''),
    s.createdAt ?? f.dash,
    s.seed === null ? f.dash : String(s.seed),
    s.mode ?? f.dash,
    `source ${s.models.source.join(', ') || f.dash} · receiver ${s.models.receiver.join(', ') || f.dash} · judge ${s.models.judge.join(', ') || f.dash}`,
    s.harness.join(', ') || f.dash,
    `${s.cells} (${s.errors} errors)`,
    `$${s.costUsd.toFixed(4)}`,
  ];
  return [side('A', c.a), side('B', c.b)];
}

export const HEADER_COLUMNS = ['run', 'id', 'created', 'seed', 'mode', 'models', 'harness', 'cells', 'cost'];

export function diffText(d: PairedDifference): string {
  if (d.diff === null) return f.dash;
  if (!d.ci) return `${f.signed(d.diff)} [–]`;
  return `${f.signed(d.diff)} ${f.ci(d.ci)}${f.boundMark(d.ciBound)}`;
}

const testNames: Record<string, string> = {
  'clustered-t': 't (clustered)',
  'sign-flip-exact': 'sign-flip, exact',
  'sign-flip-monte-carlo': 'sign-flip, Monte Carlo',
};

export function diffTable(s: SuiteComparison): TextTable {
  return {
    title: `Paired differences B − A (${s.suite}; family of ${s.family.size}, Holm, MDE at α/${s.family.size || 1})`,
    headers: [
      'arm',
      'criterion',
      'pairs',
      'A mean',
      'B mean',
      'Δ B − A [95% CI]',
      'test',
      'p (Holm)',
      'verdict',
    ],
    rows: s.diffs.map((x) => [
      x.arm,
      x.criterion + (x.criterion === s.primary ? ' (primary)' : ''),
      String(x.d.pairs) + (x.d.unpaired ? ` (${x.d.unpaired} unpaired)` : ''),
      x.d.means ? x.d.means.baseline.toFixed(2) : f.dash,
      x.d.means ? x.d.means.treatment.toFixed(2) : f.dash,
      diffText(x.d),
      x.d.test ? testNames[x.d.test]! : f.dash,
      f.pValue(x.pHolm),
      x.verdict,
    ]),
    numeric: [2, 3, 4, 7],
  };
}

const rate = (s: SurvivalSide) => (s.total ? `${f.pct(s.kept / s.total)} (${s.kept}/${s.total})` : f.dash);
const rateDelta = (a: SurvivalSide, b: SurvivalSide) =>
  a.total && b.total ? f.signed((b.kept / b.total - a.kept / a.total) * 100, 0, ' pt') : f.dash;

export function survivalTable(s: SuiteComparison): TextTable {
  return {
    title: `Survival by kind × location, A and B side by side (${s.suite}; kept / claims, cells ok in both runs)`,
    headers: ['arm', 'kind', 'location', 'stage', 'A', 'B', 'Δ'],
    rows: s.survival.map((x) => [
      x.arm,
      x.kind,
      x.location,
      x.stage,
      rate(x.a),
      rate(x.b),
      rateDelta(x.a, x.b),
    ]),
    numeric: [4, 5, 6],
  };
}

const usageCell = (
  a: UsageMeans | null,
  b: UsageMeans | null,
  k: keyof UsageMeans,
  fmt: (x: number) => string,
) =>
  a && b
    ? `${fmt(a[k])} → ${fmt(b[k])} (${k === 'latencyMs' ? f.seconds(b[k] - a[k], true) : k === 'costUsd' ? f.signed(b[k] - a[k], 4, ' $') : f.signed(b[k] - a[k], 0)})`
    : f.dash;

export function usageTable(s: SuiteComparison): TextTable {
  return {
    title: `Tokens, latency, cost: mean per cell, A → B (Δ) (${s.suite}; cells ok in both runs)`,
    headers: ['arm', 'pairs', 'handoff tokens', 'receiver input tokens', 'output tokens', 'latency', 'cost'],
    rows: s.usage.map((u) => [
      u.arm,
      String(u.pairs),
      usageCell(u.meanA, u.meanB, 'handoffTokens', (x) => f.int(x)),
      usageCell(u.meanA, u.meanB, 'inputTokens', (x) => f.int(x)),
      usageCell(u.meanA, u.meanB, 'outputTokens', (x) => f.int(x)),
      usageCell(u.meanA, u.meanB, 'latencyMs', (x) => f.seconds(x)),
      usageCell(u.meanA, u.meanB, 'costUsd', (x) => `$${x.toFixed(4)}`),
    ]),
    numeric: [1],
  };
}
