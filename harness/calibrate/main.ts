import { parseArgs } from 'node:util';
import { HarnessError } from '../core/errors.ts';
import { formatShared } from './format-shared.ts';
import {
  calibrate,
  CALIBRATION_DEFAULTS,
  type CalibrateOptions,
  type SuiteCalibration,
} from './calibrate.ts';

/**
 * `npm run calibrate -- [--suite id]… [--replications 200] [--reps 3] [--cases N] [--effect 0.5]
 *                      [--seed-base 1000] [--cases-dir cases] [--regime both] [--json] [--help]`
 * Exit 0 when every target is met (or on --help), 1 when one is missed (the table says which), 2 on
 * bad input.
 */
export const USAGE = `Usage: npm run calibrate -- [options]

Measures the statistics on cases resampled from each suite's generator (sim; docs/results.md#calibration).

  --suite ID           a suite to calibrate (repeat; default: every suite with a generator)
  --replications N     replications per suite (default ${CALIBRATION_DEFAULTS.replications})
  --reps N             reps per case × arm (default ${CALIBRATION_DEFAULTS.reps})
  --cases N            cases per replication (default: the generator's count)
  --effect P           the planted effect: +1 on a score with probability P, in (0, 1] (default ${CALIBRATION_DEFAULTS.effect})
  --seed-base N        replication r draws its cases at generator seed N + r (default ${CALIBRATION_DEFAULTS.seedBase})
  --cases-dir DIR      where the suites live (default cases)
  --regime R           independent (the baseline and copies at their own seeds), shared (the suite's
                       different arms at one seed, as reports compare them) or both (default both)
  --json               print the figures as JSON
  -h, --help           print this and exit

Exit 0 when every target is met, 1 when one is missed, 2 on bad input.
`;
export const TARGETS = { coverage: 0.93, familyWise: 0.06 };

export async function main(argv: string[]): Promise<number> {
  let opts: CalibrateOptions & { json: boolean; help: boolean };
  try {
    opts = parse(argv);
    if (opts.help) {
      process.stdout.write(USAGE);
      return 0;
    }
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

function parse(argv: string[]): CalibrateOptions & { json: boolean; help: boolean } {
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
      regime: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const regime = values.regime ?? 'both';
  if (!['independent', 'shared', 'both'].includes(regime))
    throw new Error(`--regime: must be independent, shared or both (got "${regime}")`);
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
    regimes: regime === 'both' ? ['independent', 'shared'] : [regime as 'independent' | 'shared'],
    json: values.json,
    help: values.help,
  };
}

const pct = (a: number, b: number) => (b ? `${((100 * a) / b).toFixed(1)}%` : '–');

/** The targets a suite's figures miss, in words. */
export function missed(r: SuiteCalibration): string[] {
  const out: string[] = [];
  const sh = r.shared;
  if (sh?.planted && sh.covered / sh.planted < TARGETS.coverage)
    out.push(`shared-seed coverage ${pct(sh.covered, sh.planted)} < 93%`);
  if (sh)
    for (const [name, n] of [
      ['primary', sh.primaryFlagged],
      ['secondary', sh.secondaryFlagged],
    ] as const)
      if (n / sh.replications > TARGETS.familyWise)
        out.push(`shared-seed ${name} family-wise ${pct(n, sh.replications)} > 6%`);
  if (r.planted && r.covered / r.planted < TARGETS.coverage)
    out.push(`coverage ${pct(r.covered, r.planted)} < 93%`);
  for (const [name, n] of [
    ['primary', r.primaryFlagged],
    ['secondary', r.secondaryFlagged],
  ] as const)
    if (r.replications && n / r.replications > TARGETS.familyWise)
      out.push(`${name} family-wise ${pct(n, r.replications)} > 6%`);
  return out;
}

export function formatCalibration(all: readonly SuiteCalibration[], seconds: number): string {
  const results = all.filter((r) => r.regimes.includes('independent'));
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
  if (results.length === 0) lines.length = 0;
  else lines.push('');
  lines.push(
    ...formatShared(all, missed),
    `Targets: coverage ≥ ${TARGETS.coverage * 100}%, family-wise false positives ≤ ${TARGETS.familyWise * 100}% per family. ${seconds.toFixed(0)} s.`,
    '',
  );
  return lines.join('\n');
}

export { CALIBRATION_DEFAULTS };
