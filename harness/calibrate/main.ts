import { parseArgs } from 'node:util';
import { HarnessError } from '../core/errors.ts';
import {
  calibrate,
  CALIBRATION_DEFAULTS,
  type CalibrateOptions,
  type SuiteCalibration,
} from './calibrate.ts';

/**
 * `npm run calibrate -- [--suite id]… [--replications 200] [--reps 3] [--cases N] [--effect 0.5]
 *                      [--seed-base 1000] [--cases-dir cases] [--json]`
 * Exit 0 when every target is met, 1 when one is missed (the table says which), 2 on bad input.
 */
export const TARGETS = { coverage: 0.93, familyWise: 0.06 };

export async function main(argv: string[]): Promise<number> {
  let opts: CalibrateOptions & { json: boolean };
  try {
    opts = parse(argv);
  } catch (err) {
    process.stderr.write(`calibrate: ${(err as Error).message}\n`);
    return 2;
  }
  const started = Date.now();
  try {
    const results = await calibrate({
      ...opts,
      onReplication: (suite, r) => {
        if ((r + 1) % 25 === 0) process.stderr.write(`calibrate: ${suite} ${r + 1} replications\n`);
      },
    });
    const seconds = (Date.now() - started) / 1000;
    process.stdout.write(
      opts.json
        ? `${JSON.stringify({ targets: TARGETS, seconds, results }, null, 2)}\n`
        : formatCalibration(results, seconds),
    );
    return results.every((r) => missed(r).length === 0) ? 0 : 1;
  } catch (err) {
    if (!(err instanceof HarnessError)) throw err;
    process.stderr.write(`calibrate: ${err.message}\n`);
    return 2;
  }
}

function parse(argv: string[]): CalibrateOptions & { json: boolean } {
  const { values } = parseArgs({
    args: argv,
    options: {
      suite: { type: 'string', multiple: true },
      replications: { type: 'string' },
      reps: { type: 'string' },
      cases: { type: 'string' },
      effect: { type: 'string' },
      'seed-base': { type: 'string' },
      'cases-dir': { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  const int = (name: string, v: string | undefined, min: number) => {
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!Number.isInteger(n) || n < min)
      throw new Error(`--${name}: must be an integer ≥ ${min} (got "${v}")`);
    return n;
  };
  const effect = values.effect === undefined ? undefined : Number(values.effect);
  if (effect !== undefined && !(effect > 0 && effect <= 1))
    throw new Error(`--effect: must be in (0, 1] (got "${values.effect}")`);
  return {
    suites: values.suite,
    replications: int('replications', values.replications, 1),
    reps: int('reps', values.reps, 1),
    cases: int('cases', values.cases, 2),
    effect,
    seedBase: int('seed-base', values['seed-base'], 0),
    casesDir: values['cases-dir'],
    json: values.json,
  };
}

const pct = (a: number, b: number) => (b ? `${((100 * a) / b).toFixed(1)}%` : '–');

/** The targets a suite's figures miss, in words. */
export function missed(r: SuiteCalibration): string[] {
  const out: string[] = [];
  if (r.planted && r.covered / r.planted < TARGETS.coverage)
    out.push(`coverage ${pct(r.covered, r.planted)} < 93%`);
  for (const [name, n] of [
    ['primary', r.primaryFlagged],
    ['secondary', r.secondaryFlagged],
  ] as const)
    if (n / r.replications > TARGETS.familyWise)
      out.push(`${name} family-wise ${pct(n, r.replications)} > 6%`);
  return out;
}

export function formatCalibration(results: readonly SuiteCalibration[], seconds: number): string {
  const lines = [
    `Calibration on resampled cases (sim). Per replication: fresh cases from the suite's generator (seeds ${results[0]?.seeds.join('…') ?? '–'}); the baseline arm and copies of it, each at its own run seed (a true null); then the copies with +1 on each score at probability ${results[0]?.effect ?? '–'} (a planted effect of exactly that size).`,
    '',
    '| suite | cases × reps | arms | primary | replications | FWER primary | FWER secondary | any verdict flagged | planted: 95% CI covers | planted: found | tests | old t rule: FWER primary · secondary | targets |',
    '| --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | --- |',
  ];
  for (const r of results) {
    const tests = Object.entries(r.tests)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ');
    const miss = missed(r);
    lines.push(
      `| ${r.suite} | ${r.cases} × ${r.reps} | ${r.arms} | ${r.primaryCriterion} | ${r.replications} | ${pct(r.primaryFlagged, r.replications)} | ${r.criteria.length > 1 ? pct(r.secondaryFlagged, r.replications) : '–'} | ${pct(r.eitherFlagged, r.replications)} | ${pct(r.covered, r.planted)} (${r.covered}/${r.planted}) | ${pct(r.detected, r.planted)} | ${tests} | ${pct(r.reference.primaryFlagged, r.replications)} · ${pct(r.reference.secondaryFlagged, r.replications)} | ${miss.length ? `MISSED: ${miss.join('; ')}` : 'met'} |`,
    );
  }
  lines.push(
    '',
    `Targets: coverage ≥ ${TARGETS.coverage * 100}%, family-wise false positives ≤ ${TARGETS.familyWise * 100}% per family. ${seconds.toFixed(0)} s.`,
    '',
  );
  return lines.join('\n');
}

export { CALIBRATION_DEFAULTS };
