import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Arm, Case, ResultRow, Suite } from '../core/index.ts';
import type { ResolvedConfig } from '../config/types.ts';
import { loadSuite, toCase } from '../../cases/load.ts';
import { importModule } from '../config/import-module.ts';
import { createSimProvider } from '../providers/sim/index.ts';
import { createCallPath } from '../calls/call-path.ts';
import { executeCell } from '../runner/execute-cell.ts';
import { HandoffMemo } from '../runner/handoff-memo.ts';
import { planCells } from '../runner/plan.ts';
import { InputError } from '../core/errors.ts';

/** A suite that can be resampled: its meta, and its generator (module's generate, the suite's case count). */
export interface Resampleable {
  suite: Suite;
  generate: (o: { seed: number; count: number }) => unknown[];
  count: number;
  file: string;
}

/** Loads a suite folder for resampling; only generated suites qualify (hand-written cases are fixed). */
export async function resampleable(dir: string): Promise<Resampleable> {
  const file = join(dir, 'suite.json');
  const json = JSON.parse(readFileSync(file, 'utf8')) as { generator?: { module: string; count?: number } };
  if (!json.generator)
    throw new InputError('not_generated', `${file}: generator: this suite has no generator to resample`);
  const suite = await loadSuite(dir);
  const modFile = resolve(dir, json.generator.module);
  const mod = (await importModule(modFile)) as Pick<Resampleable, 'generate'>;
  return { suite, generate: mod.generate, count: json.generator.count ?? 10, file: modFile };
}

/** Fresh cases from the suite's generator at `seed` (validated as the loader validates them). */
export async function resampleCases(r: Resampleable, seed: number, count = r.count): Promise<Case[]> {
  const raw = r.generate({ seed, count });
  return Promise.all(raw.map((c, i) => toCase(c, `${r.file}#${i}`, dirname(r.file), r.suite)));
}

/**
 * One null replication: the suite's baseline arm and `arms − 1` copies of it, each run on the sim at
 * its own run seed — so they differ only by independent draws (receiver, judge), never by strategy.
 * Rows come back as a run would journal them; nothing is written or cached.
 */
export async function runReplication(
  r: Resampleable,
  cases: Case[],
  opts: { config: ResolvedConfig; arms: number; seeds: number[] },
): Promise<ResultRow[]> {
  const base = r.suite.arms.find((a) => a.name === r.suite.baselineArm)!;
  const arms: Arm[] = Array.from({ length: opts.arms }, (_, i) =>
    i === 0 ? base : { ...base, name: `${base.name}-copy-${i}` },
  );
  return runArms(r, cases, { config: opts.config, arms, seeds: opts.seeds });
}

/**
 * The suite's own arms, every one at the same run seed (common random numbers, as a report runs
 * them): the shared-seed regime (shared.ts).
 */
export function runSharedReplication(
  r: Resampleable,
  cases: Case[],
  opts: { config: ResolvedConfig; seed: number },
): Promise<ResultRow[]> {
  const arms = r.suite.arms;
  return runArms(r, cases, { config: opts.config, arms, seeds: arms.map(() => opts.seed) });
}

async function runArms(
  r: Resampleable,
  cases: Case[],
  opts: { config: ResolvedConfig; arms: Arm[]; seeds: number[] },
): Promise<ResultRow[]> {
  const arms = opts.arms;
  const suite: Suite = { ...r.suite, arms, cases };
  const sim = { sim: createSimProvider(opts.config.sim) };
  const envs = arms.map((arm, i) => {
    const config = { ...opts.config, seed: opts.seeds[i]! };
    const calls = createCallPath({
      config,
      providers: sim,
      cache: null,
      runId: 'calibrate',
      onCall: () => {},
    });
    return {
      arm: arm.name,
      env: { config, calls, runId: 'calibrate', harnessVersion: 'calibrate', handoffs: new HandoffMemo() },
    };
  });
  const rows: ResultRow[] = [];
  for (const cell of planCells([suite], opts.config)) {
    const { env } = envs.find((e) => e.arm === cell.arm)!;
    rows.push(await executeCell(cell, env));
  }
  return rows;
}
