#!/usr/bin/env node
// `npm run build` (also run by `npm ci` / `npm install` as `prepare`): bundles the CLI and the benches
// into dist/ with esbuild, so the bins run plain JavaScript instead of compiling TypeScript through tsx
// at every start (~30 MB of resident memory and the transform time). Dependencies stay external.
// dist/stamp.json lists every bundled source; bin/dist.js falls back to the sources (through tsx)
// when dist/ is missing or any of them is newer than the build, so an edit is never run stale.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const outdir = join(root, 'dist');

const entries = {
  cli: 'harness/cli/main.ts',
  // The public API, sharing its modules with the CLI: configs compiled by harness/config/import-module.ts import it.
  index: 'harness/index.ts',
  'bench-throughput': 'bench/throughput.ts',
  'bench-render': 'bench/render.ts',
  'bench-mock-server': 'bench/mock-server.ts',
};

export async function buildDist(out = outdir) {
  // Stamped with the time the build started: a source saved while it runs counts as newer than the bundle.
  const startedAt = Date.now();
  // dist/types/ (scripts/build-types.mjs, run by prepack just before npm runs this as prepare) stays.
  for (const f of existsSync(out) ? readdirSync(out) : [])
    if (f !== 'types') rmSync(join(out, f), { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const result = await build({
    absWorkingDir: root,
    entryPoints: entries,
    outdir: out,
    // Flat: every file one level below the package root, so `new URL('../package.json', import.meta.url)`
    // and the other package-relative paths resolve as they do from the sources.
    entryNames: '[name]',
    chunkNames: 'chunk-[hash]',
    bundle: true,
    splitting: true, // lazily imported modules (the providers and their SDKs, the importers) stay lazy
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    packages: 'external',
    keepNames: false,
    sourcemap: 'linked',
    metafile: true,
    logLevel: 'warning',
    define: { HANDOFF_EVAL_BUNDLE: 'true' },
  });
  await writeTokenTable(out);
  const own = (f) => !f.includes('node_modules/');
  const sources = Object.keys(result.metafile.inputs).filter(own).sort();
  const stamp = {
    builtAt: startedAt,
    sources: sources.map((f) => relative(root, join(root, f))),
    // Per entry, so a package that ships without the benches still runs its CLI from the bundle.
    entries: Object.fromEntries(
      Object.keys(entries).map((name) => [name, entrySources(result.metafile, out, name).filter(own)]),
    ),
    // Content hashes: an installed copy's files all carry the install's mtime, not the build's.
    hashes: Object.fromEntries(sources.map((f) => [f, sha1(readFileSync(join(root, f)))])),
  };
  writeFileSync(join(out, 'stamp.json'), `${JSON.stringify(stamp, null, 1)}\n`);
  return { sources: sources.length };
}

/** Every source an entry's output reaches through static and lazy imports. */
function entrySources(meta, out, name) {
  const outputs = meta.outputs;
  const key = Object.keys(outputs).find((k) => resolve(root, k) === join(out, `${name}.js`));
  const seen = new Set();
  const inputs = new Set();
  const walk = (k) => {
    if (!k || seen.has(k) || !outputs[k]) return;
    seen.add(k);
    for (const i of Object.keys(outputs[k].inputs)) inputs.add(i);
    for (const imp of outputs[k].imports) if (!imp.external) walk(imp.path);
  };
  walk(key);
  return [...inputs].sort();
}

const sha1 = (data) => createHash('sha1').update(data).digest('hex');

/** dist/o200k-table.bin: the tokenizer's rank table prebuilt, so a run loads it in one read (harness/core/tokenizer/). */
async function writeTokenTable(out) {
  const code = await build({
    stdin: {
      contents: "export { loadRankTable, serializeRankTable } from './harness/core/tokenizer/rank-table.ts';",
      resolveDir: root,
      loader: 'ts',
    },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    packages: 'external',
    logLevel: 'warning',
  });
  const { loadRankTable, serializeRankTable } = await import(
    `data:text/javascript;base64,${Buffer.from(code.outputFiles[0].text).toString('base64')}`
  );
  const data = createRequire(import.meta.url).resolve('gpt-tokenizer/data/o200k_base.tiktoken');
  writeFileSync(join(out, 'o200k-table.bin'), serializeRankTable(loadRankTable(data), statSync(data).size));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const t0 = performance.now();
  const { sources } = await buildDist(process.argv[2] ? join(process.cwd(), process.argv[2]) : outdir);
  process.stdout.write(
    `handoff-eval: built dist/ from ${sources} sources in ${Math.round(performance.now() - t0)} ms\n`,
  );
}
