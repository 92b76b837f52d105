import type { ResultRow } from '../core/index.ts';
import { InputError } from '../core/errors.ts';
import { canonicalRows, summarize } from '../../reports/summarize.ts';
import { scoredCells, type ScoredCell } from '../../reports/stats/paired.ts';
import type { Summary } from '../../reports/summary/types.ts';
import { validateBaselineShape } from './baseline-schema.ts';
import { stripBom } from '../core/text/read-text.ts';
import { armMode, armModels } from './like-for-like.ts';

export {
  BASELINE_SCHEMA,
  type Baseline,
  type RunIdentity,
  type BaselineSuite,
  type BaselineArm,
  type BaselineCriterion,
} from './types.ts';
import {
  BASELINE_SCHEMA,
  type Baseline,
  type BaselineArm,
  type BaselineCriterion,
  type BaselineSuite,
  type RunIdentity,
} from './types.ts';

/** The identity of a run, from its summary (rows carry seed, models and harness version). */
export function identityOf(summary: Summary): RunIdentity {
  return {
    runId: summary.runId,
    seed: summary.seed,
    harnessVersion: summary.harnessVersion,
    simulated: summary.simulated,
    models: summary.models,
    suites: summary.suites.map((s) => ({ suite: s.suite, arms: s.arms.map((a) => a.arm) })),
  };
}

/** A baseline from a run's journal rows (a cell journalled twice counts once, as in the reports). */
export function createBaseline(input: readonly ResultRow[]): Baseline {
  const { rows } = canonicalRows(input);
  if (rows.length === 0)
    throw new InputError('empty_run', 'the run has no result rows: nothing to make a baseline from');
  const summary = summarize(rows);
  const suites = summary.suites.map((s): BaselineSuite => ({
    suite: s.suite,
    baselineArm: s.baselineArm,
    cases: s.cases,
    reps: s.reps,
    criteria: s.criteria,
    arms: s.arms.map((a): BaselineArm => {
      const armRows = rows.filter((r) => r.suite === s.suite && r.arm === a.arm);
      const scores: Record<string, BaselineCriterion> = {};
      for (const c of s.criteria) {
        const cells = scoredCells(armRows, c).map((x): ScoredCell => ({
          case_id: x.case_id,
          rep: x.rep,
          value: x.value,
        }));
        if (cells.length === 0) continue;
        const cs = a.scores[c];
        scores[c] = {
          n: cs?.n ?? 0,
          unscored: cs?.unscored ?? cells.length,
          mean: round(cs?.mean ?? null),
          ci: cs?.ci ? [round(cs.ci[0])!, round(cs.ci[1])!] : null,
          cells,
        };
      }
      return {
        arm: a.arm,
        strategy: a.strategy,
        params: a.params,
        ...(armMode(armRows) !== 'recorded' ? { mode: armMode(armRows) } : {}),
        models: armModels(armRows),
        cells: a.cells,
        ok: a.ok,
        errors: a.errors,
        errorRate: round(a.cells ? a.errors / a.cells : 0)!,
        tokens: { handoff: round(a.tokens.handoff), windowAfter: round(a.tokens.windowAfter) },
        scores,
      };
    }),
  }));
  return { schema: BASELINE_SCHEMA, identity: identityOf(summary), suites };
}

/**
 * baseline.json: two-space JSON with one scored cell per line, so a refreshed baseline reviews as a
 * short diff of the cells that moved.
 */
export function renderBaseline(b: Baseline): string {
  const compact: string[] = [];
  const text = JSON.stringify(
    b,
    (key, value: unknown) => {
      const hold = (json: string) => {
        compact.push(json);
        return `\u0001${compact.length - 1}`;
      };
      if (key === 'cells' && Array.isArray(value))
        return value.map((c: ScoredCell) =>
          hold(JSON.stringify({ case_id: c.case_id, rep: c.rep, value: c.value })),
        );
      if (key === 'ci' && Array.isArray(value)) return hold(JSON.stringify(value));
      return value;
    },
    2,
  );
  return `${text.replace(/"\\u0001(\d+)"/g, (_, i: string) => compact[Number(i)]!)}\n`;
}

/** Parses and checks a baseline file; anything unusable is an InputError naming the file and field (exit 2). */
export function parseBaseline(text: string, file: string): Baseline {
  let value: unknown;
  try {
    value = JSON.parse(stripBom(text));
  } catch (err) {
    throw new InputError('bad_baseline', `${file}: not valid JSON (${(err as Error).message})`, {
      cause: err,
    });
  }
  const schema =
    value && typeof value === 'object' && !Array.isArray(value)
      ? (value as { schema?: unknown }).schema
      : undefined;
  if (schema !== BASELINE_SCHEMA) {
    throw new InputError(
      'baseline_schema',
      `${file}: schema: expected "${BASELINE_SCHEMA}", got ${JSON.stringify(schema ?? null)} (rebuild it: handoff-eval baseline <run-dir> --out ${file})`,
    );
  }
  const problem = validateBaselineShape(value);
  if (problem) throw new InputError('bad_baseline', `${file}: ${problem}`);
  return value as Baseline;
}

function round(x: number | null): number | null {
  return x === null ? null : Math.round(x * 10_000) / 10_000;
}
