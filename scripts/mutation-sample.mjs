#!/usr/bin/env node
// `npm run mutate:sample -- <module> [--n 250] [--seed 1]`: the mutation score of a module estimated
// from a simple random sample of its mutants, with a 95 % Wilson interval (issue 20). A whole module of
// 1,000–3,000 mutants takes hours on 2 cores; 250 drawn mutants took minutes (judges, gate) to 48
// (strategies, whose property test and kit cover nearly every mutant; 3 Dec, concurrency 2) and bound
// the score to about ±6 points.
//
// 1. Every mutant of the module is listed with Stryker's own instrumenter (the mutants `stryker run`
//    would make: same mutators, same defaults).
// 2. n of them are drawn with a seeded generator and written to a file (MUTATION_SAMPLE).
// 3. `stryker run` over the whole module with the sample checker (scripts/mutation-sample-checker.mjs),
//    which lets only the drawn mutants through to the tests; its own incremental and JSON files.
// 4. The score counts the drawn mutants: killed or timed out over killed, timed out, survived and
//    not covered (static mutants are ignored, as in a whole run).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Instrumenter } from '@stryker-mutator/instrumenter';
import { MODULES } from './mutation-modules.mjs';
import { sampleKey } from './mutation-sample-checker.mjs';

const quietLog = new Proxy({}, { get: (_, k) => (String(k).startsWith('is') ? () => false : () => {}) });

function parseArgs(argv) {
  const [name, ...rest] = argv;
  const opts = { name, n: 250, seed: 1 };
  for (let i = 0; i < rest.length; i += 2) {
    const key = rest[i].replace(/^--/, '');
    if (!['n', 'seed'].includes(key) || !/^\d+$/.test(rest[i + 1] ?? '')) usage(`bad option ${rest[i]}`);
    opts[key] = Number(rest[i + 1]);
  }
  if (!MODULES[name]) usage(`unknown module ${name}`);
  // A triage run's tests are a subset of the module's: its survivors locate gaps, never a score.
  if (process.env.MUTATION_TRIAGE_TESTS)
    usage('MUTATION_TRIAGE_TESTS is set: a sample scores the module with its own tests');
  return opts;
}

function usage(why) {
  console.error(
    `mutate:sample: ${why}; usage: <module> [--n 250] [--seed 1]; modules: ${Object.keys(MODULES).join(', ')}`,
  );
  process.exit(2);
}

/** The files a module's mutate patterns name (relative to root): `dir/**\/*.ts` walks dir; anything else is a file. */
export function moduleFiles(patterns, root = '.') {
  const out = [];
  const walk = (dir) => {
    for (const entry of readdirSync(join(root, dir)).sort()) {
      const path = join(dir, entry);
      if (statSync(join(root, path)).isDirectory()) walk(path);
      else if (path.endsWith('.ts') && !path.endsWith('.d.ts')) out.push(path);
    }
  };
  for (const p of patterns) {
    if (p.endsWith('/**/*.ts')) walk(p.slice(0, -'/**/*.ts'.length));
    else out.push(p);
  }
  return out;
}

/** mulberry32: small, seeded, good enough to draw a sample reproducibly. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A report mutant (1-based lines and columns) under the sample checker's key (0-based, as drawn). */
const reportKey = (file, m) =>
  sampleKey(file, {
    ...m,
    location: {
      start: { line: m.location.start.line - 1, column: m.location.start.column - 1 },
      end: { line: m.location.end.line - 1, column: m.location.end.column - 1 },
    },
  });

/** Wilson 95 % interval for k successes of n. */
export function wilson(k, n) {
  if (n === 0) return [0, 1];
  const z = 1.959964;
  const p = k / n;
  const d = 1 + (z * z) / n;
  const mid = (p + (z * z) / (2 * n)) / d;
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / d;
  return [Math.max(0, mid - half), Math.min(1, mid + half)];
}

async function main() {
  const { name, n, seed } = parseArgs(process.argv.slice(2));
  const files = moduleFiles(MODULES[name].mutate).map((f) => ({
    name: f,
    content: readFileSync(f, 'utf8'),
    mutate: true,
  }));
  const { mutants } = await new Instrumenter(quietLog).instrument(files, {
    plugins: null,
    excludedMutations: [],
    ignorers: [],
  });
  const draw = random(seed);
  const pool = [...mutants];
  const sample = [];
  while (sample.length < Math.min(n, pool.length))
    sample.push(...pool.splice(Math.floor(draw() * pool.length), 1));
  const slug = `${name.replaceAll('/', '-')}.sample-${n}-${seed}`;
  mkdirSync('reports/mutation', { recursive: true });
  const sampleFile = `reports/mutation/${slug}.drawn.json`;
  const drawn = { files: files.map((f) => f.name), keys: sample.map((m) => sampleKey(m.fileName, m)) };
  writeFileSync(sampleFile, JSON.stringify(drawn, null, 1));
  console.log(
    `${name}: ${mutants.length} mutants in ${files.length} files; drew ${sample.length} (seed ${seed})`,
  );
  const run = spawnSync('npx', ['stryker', 'run'], {
    stdio: 'inherit',
    env: { ...process.env, MUTATION_MODULE: name, MUTATION_SAMPLE: resolve(sampleFile), MUTATION_SLUG: slug },
  });
  const report = `reports/mutation/${slug}.json`;
  if (run.status !== 0 || !existsSync(report)) {
    console.error(`mutate:sample: stryker run failed (exit ${run.status})`);
    process.exit(1);
  }
  score(name, mutants.length, sample, report, slug);
}

function score(name, total, sample, reportFile, slug) {
  const report = JSON.parse(readFileSync(reportFile, 'utf8'));
  const status = new Map();
  for (const [file, f] of Object.entries(report.files))
    for (const m of f.mutants) status.set(reportKey(file, m), m);
  const counts = {};
  const survivors = [];
  const missing = [];
  for (const m of sample) {
    const got = status.get(sampleKey(m.fileName, m));
    if (!got) {
      missing.push(m);
      continue;
    }
    counts[got.status] = (counts[got.status] ?? 0) + 1;
    if (got.status === 'Survived' || got.status === 'NoCoverage')
      survivors.push(
        `${got.status} ${m.fileName}:${m.location.start.line + 1}:${m.location.start.column + 1} ${m.mutatorName} → ${JSON.stringify(m.replacement).slice(0, 80)}`,
      );
  }
  const detected = (counts.Killed ?? 0) + (counts.Timeout ?? 0);
  const valid = detected + (counts.Survived ?? 0) + (counts.NoCoverage ?? 0);
  const [lo, hi] = wilson(detected, valid);
  const pct = (x) => `${(100 * x).toFixed(1)} %`;
  const summary = {
    module: name,
    mutants: total,
    drawn: sample.length,
    counts,
    notFoundInReport: missing.length,
    score: valid ? detected / valid : null,
    ci95: [lo, hi],
    survivors,
  };
  writeFileSync(`reports/mutation/${slug}.score.json`, JSON.stringify(summary, null, 1));
  console.log(
    `\n${name}: estimated mutation score ${valid ? pct(detected / valid) : '—'} [${pct(lo)}, ${pct(hi)}]`,
  );
  console.log(
    `  ${JSON.stringify(counts)} over ${valid} valid of ${sample.length} drawn (of ${total} mutants)`,
  );
  if (missing.length)
    console.log(`  ${missing.length} drawn mutants were not in the report (see ${slug}.score.json)`);
  for (const s of survivors) console.log(`  ${s}`);
}

// Run as a script; imported (test/architecture/mutation-config.test.ts), only the helpers.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
