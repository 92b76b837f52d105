import { join } from 'node:path';
import { resolveConfig } from '../config/resolve-config.ts';
import { listSuiteIds } from '../../cases/load.ts';
import { UnknownNameError } from '../core/errors.ts';
import { measureReplication, totalsOf, type CalibrationTotals, type ReplicationOutcome } from './measure.ts';
import { resampleable, resampleCases, runReplication, runSharedReplication } from './replicate.ts';
import { measureShared, sharedTotals, type SharedCalibration, type SharedOutcome } from './shared.ts';

/** independent: the baseline and copies at their own seeds; shared: the suite's different arms at one seed. */
export type Regime = 'independent' | 'shared';

export interface CalibrateOptions {
  /** Where the suites live. @default 'cases' */
  casesDir?: string;
  /** Suite ids. @default every suite with a generator */
  suites?: string[];
  /** Replications per suite. @default 200 */
  replications?: number;
  /** Reps per case × arm. @default 3 */
  reps?: number;
  /** Cases per replication. @default the suite's generator count */
  cases?: number;
  /** The planted effect: probability of +1 on each score of a copy. @default 0.5 */
  effect?: number;
  /** Replication r draws its cases with generator seed base + r. @default 1000 */
  seedBase?: number;
  /** Which regimes to run. @default both */
  regimes?: Regime[];
  /** Called after each replication (progress). */
  onReplication?: (suite: string, r: number, outcome: ReplicationOutcome) => void;
}

export interface SuiteCalibration extends CalibrationTotals {
  suite: string;
  cases: number;
  reps: number;
  arms: number;
  criteria: string[];
  primaryCriterion: string;
  /** The planted effect. */
  effect: number;
  /** Generator seeds of the replications: seedBase … seedBase + replications − 1. */
  seeds: [number, number];
  /** The regimes run; the independent totals are zero when it was not. */
  regimes: Regime[];
  /** The shared-seed regime over the same replications (null when not run). */
  shared: (SharedCalibration & { arms: string[] }) | null;
}

export const CALIBRATION_DEFAULTS = { replications: 200, reps: 3, effect: 0.5, seedBase: 1000 };

/**
 * Resamples each suite's cases from its generator, replication by replication, and measures the
 * statistics on a true null (the baseline arm and copies of it at independent seeds) and on a planted
 * effect (measure.ts), and — the shared-seed regime (shared.ts) — on the suite's different arms at
 * one run seed, as reports compare them. Everything is seeded: the same options give the same figures.
 */
export async function calibrate(opts: CalibrateOptions = {}): Promise<SuiteCalibration[]> {
  const casesDir = opts.casesDir ?? 'cases';
  const given = Object.fromEntries(Object.entries(opts).filter(([, v]) => v !== undefined));
  const o = { ...CALIBRATION_DEFAULTS, ...given } as typeof CALIBRATION_DEFAULTS & CalibrateOptions;
  const ids = listSuiteIds(casesDir);
  for (const id of opts.suites ?? [])
    if (!ids.includes(id)) throw new UnknownNameError('suite', id, ids, casesDir);
  const out: SuiteCalibration[] = [];
  for (const id of opts.suites ?? ids) {
    const r = await resampleable(join(casesDir, id)).catch((err) => {
      if (opts.suites) throw err;
      return null; // a suite without a generator is skipped when none were named
    });
    if (!r) continue;
    const config = resolveConfig({ casesDir, reps: o.reps, cache: false }, { quiet: true });
    const arms = r.suite.arms.length;
    const regimes = opts.regimes ?? ['independent', 'shared'];
    const outcomes: ReplicationOutcome[] = [];
    const shared: SharedOutcome[] = [];
    let cases = 0;
    for (let i = 0; i < o.replications; i++) {
      const seed = o.seedBase + i;
      const drawn = await resampleCases(r, seed, opts.cases);
      cases = drawn.length;
      const at = { effect: o.effect, seed: `${id}/${seed}` };
      if (regimes.includes('independent')) {
        const seeds = Array.from({ length: arms }, (_, k) => seed * 100 + k);
        const rows = await runReplication(r, drawn, { config, arms, seeds });
        const outcome = measureReplication(rows, at);
        outcomes.push(outcome);
        opts.onReplication?.(id, i, outcome);
      }
      if (regimes.includes('shared')) {
        const rows = await runSharedReplication(r, drawn, { config, seed: seed * 100 });
        shared.push(measureShared(rows, at));
      }
    }
    out.push({
      suite: id,
      cases,
      reps: o.reps,
      arms,
      criteria: r.suite.criteria,
      primaryCriterion: r.suite.primaryCriterion ?? r.suite.criteria[0]!,
      effect: o.effect,
      seeds: [o.seedBase, o.seedBase + o.replications - 1],
      ...totalsOf(outcomes),
      regimes,
      shared: regimes.includes('shared')
        ? {
            ...sharedTotals(shared, o.effect),
            // The baseline first: the table reads the other arms' truths from the rest.
            arms: [
              r.suite.baselineArm,
              ...r.suite.arms.map((a) => a.name).filter((a) => a !== r.suite.baselineArm),
            ],
          }
        : null,
    });
  }
  return out;
}
