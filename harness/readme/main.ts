import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import type { Summary } from '../../reports/summary/types.ts';
import { readmeFigures } from './figures.ts';
import { frameworkFigures } from './framework-figures.ts';
import { checkFigures, refreshReadme, type FigureCheck } from './check.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

/**
 * `npm run readme:figures -- [<run-dir>] [--frameworks-run <dir>] [--write] [--readme README.md]`:
 * every figure README.md quotes from the default run, checked against a run — a fresh `handoff-eval
 * run --no-cache` (the shipped eval.config.ts, seed 1) unless a run directory is given — and the
 * "What frameworks hand over" rows against a run of frameworks.config.ts (fresh unless
 * `--frameworks-run` names one). Prints each figure the README
 * has and the run gives; `--write` rewrites the ones that differ (and formats the README with
 * prettier). Exit 0 all match (or written), 1 some differ or cannot be found, 2 bad input.
 */
export async function main(argv: string[]): Promise<number> {
  let values: { write?: boolean; readme?: string; 'frameworks-run'?: string };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        write: { type: 'boolean' },
        readme: { type: 'string' },
        'frameworks-run': { type: 'string' },
      },
    }));
  } catch (err) {
    process.stderr.write(`readme:figures: ${(err as Error).message}\n`);
    return 2;
  }
  const readmeFile = values.readme ?? join(root, 'README.md');
  if (!existsSync(readmeFile)) return bad(`${readmeFile}: no such file`);
  const given = positionals[0];
  if (given && !existsSync(join(given, 'report.json'))) return bad(`${given}: no report.json in it`);
  const fw = values['frameworks-run'];
  if (fw && !existsSync(join(fw, 'report.json'))) return bad(`${fw}: no report.json in it`);
  const { summary, note } = given ? { summary: readSummary(given), note: `run ${given}` } : freshRun();
  // "What frameworks hand over" comes from its own run (frameworks.config.ts), so the default run stays as the README states it.
  const frameworks = fw
    ? { summary: readSummary(fw), note: `frameworks run ${fw}` }
    : freshRun(['--config', 'frameworks.config.ts']);
  const figures = [...readmeFigures(summary), ...frameworkFigures(frameworks.summary)];
  const readme = readFileSync(readmeFile, 'utf8');
  const checks = checkFigures(readme, figures);
  process.stdout.write(`${note}\n${frameworks.note}\n${formatChecks(checks)}`);
  const unreadable = checks.filter((c) => c.problem);
  const differing = checks.filter((c) => c.differs.length);
  if (values.write && differing.length) {
    writeFileSync(readmeFile, await formatted(refreshReadme(readme, figures), readmeFile));
    process.stdout.write(
      `wrote ${differing.length} figure(s) into ${readmeFile}; read the prose around them\n`,
    );
    return unreadable.length ? 1 : 0;
  }
  process.stdout.write(
    differing.length || unreadable.length
      ? `${differing.length} figure(s) differ, ${unreadable.length} not found: refresh with npm run readme:figures -- --write\n`
      : `all ${checks.length} figures match\n`,
  );
  return differing.length || unreadable.length ? 1 : 0;
}

function bad(message: string): number {
  process.stderr.write(`readme:figures: ${message}\n`);
  return 2;
}

function readSummary(runDir: string): Summary {
  return JSON.parse(readFileSync(join(runDir, 'report.json'), 'utf8')) as Summary;
}

/** The default experiment as the README states it: `handoff-eval run --no-cache` in the repo, timed. */
function freshRun(extra: string[] = []): { summary: Summary; note: string } {
  const out = mkdtempSync(join(tmpdir(), 'he-readme-'));
  try {
    const started = Date.now();
    const r = spawnSync(
      process.execPath,
      [join(root, 'bin/handoff-eval.js'), 'run', ...extra, '--no-cache', '--quiet', '--out', out],
      { cwd: root, encoding: 'utf8', env: { ...process.env, CI: 'true' } },
    );
    const seconds = (Date.now() - started) / 1000;
    if (r.status !== 0) throw new Error(`handoff-eval run exited ${r.status}: ${r.stderr}`);
    const summary = readSummary(join(out, readdirSync(out)[0]!));
    return {
      summary,
      note: `fresh run: npx handoff-eval run ${extra.length ? `${extra.join(' ')} ` : ''}--no-cache — ${summary.cells} cells, ${summary.errors} errors, ${seconds.toFixed(1)} s wall clock`,
    };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

export function formatChecks(checks: readonly FigureCheck[]): string {
  const lines = ['| line | figure | slot | README | run | |', '| ---: | --- | --- | --- | --- | --- |'];
  for (const c of checks) {
    const where = c.line ?? '–';
    const figure = c.anchor.replace(/^\|\s*/, '').replace(/\|/g, '\\|');
    if (c.problem) {
      lines.push(`| ${where} | ${figure} | | | | NOT FOUND: ${c.problem} |`);
      continue;
    }
    for (const [slot, v] of Object.entries(c.run))
      lines.push(
        `| ${where} | ${figure} | ${slot} | ${c.readme![slot]} | ${v} | ${c.differs.includes(slot) ? 'DIFFERS' : 'ok'} |`,
      );
  }
  return `${lines.join('\n')}\n`;
}

async function formatted(text: string, file: string): Promise<string> {
  const prettier = await import('prettier').catch(() => null);
  if (!prettier) return text;
  const options = (await prettier.resolveConfig(file)) ?? {};
  return prettier.format(text, { ...options, filepath: file });
}
