import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../support/cli.ts';
import type { CallRecord, ResultRow } from '../../harness/core/index.ts';

/**
 * Issue 18 item 2: a criterion, a check, a reporter and a provider defined in a config
 * (test/fixtures/plugins/eval.config.ts) each run through the CLI, and the reports show the user's
 * criterion and check the way they show built-in ones.
 */
const config = 'test/fixtures/plugins/eval.config.ts';
const temps: string[] = [];
afterAll(() => temps.forEach((d) => rmSync(d, { recursive: true, force: true })));

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'he-plugins-'));
  temps.push(d);
  return d;
}

const readJsonl = <T>(file: string): T[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as T);

/** A config in a temp dir: the fixture's mini suite with the given body merged into the config object. */
function variant(body: string): string {
  const file = join(tempDir(), 'eval.config.ts');
  writeFileSync(
    file,
    `import { defineCheck, defineConfig } from 'handoff-eval';\n` +
      `export default defineConfig({ casesDir: 'test/fixtures/cases', reps: 1, cache: false, ${body} });\n`,
  );
  return file;
}

describe('user-defined criterion, check, reporter and provider through the CLI', () => {
  const out = tempDir();
  const r = runCli(['run', '--config', config, '--out', out, '--quiet']);
  const dir = join(out, readdirSync(out)[0] ?? '(none)');

  it('runs to exit 0 and writes only the reporters the config names (md, html and its own)', () => {
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(dir, 'report.md'))).toBe(true);
    expect(existsSync(join(dir, 'report.html'))).toBe(true);
    expect(existsSync(join(dir, 'digest.json'))).toBe(true);
    // Not named in `reporters`, so not written (the default set would write them).
    expect(existsSync(join(dir, 'results.csv'))).toBe(false);
    expect(existsSync(join(dir, 'report.json'))).toBe(false);
  });

  it('every model call goes through the config’s own provider, and its reporter saw every cell', () => {
    const calls = readJsonl<CallRecord>(join(dir, 'calls.jsonl'));
    const digest = JSON.parse(readFileSync(join(dir, 'digest.json'), 'utf8')) as Record<string, unknown>;
    expect(calls.length).toBeGreaterThan(0);
    expect(new Set(calls.map((c) => c.provider))).toEqual(new Set(['gateway']));
    expect(digest).toMatchObject({ cellsSeen: 2, rows: 2, gatewayCalls: calls.length });
    expect(digest.criteria).toEqual(['correctness', 'names_merchants']);
  });

  it('rows carry the user criterion’s score and the user check after the built-in ones', () => {
    const rows = readJsonl<ResultRow>(join(dir, 'results.jsonl'));
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.status).toBe('ok');
      expect(Object.keys(row.scores)).toEqual(['correctness', 'names_merchants']);
      expect(typeof row.scores.names_merchants).toBe('number');
      const names = row.checks.map((c) => c.name);
      expect(names.at(-1)).toBe('mentions_m_0007');
      expect(names).toContain('tool_pairing_intact');
    }
  });

  it('report.md and report.html show the user criterion and check like built-in ones', () => {
    const md = readFileSync(join(dir, 'report.md'), 'utf8');
    expect(md).toMatch(/^\| names_merchants \| inline \(baseline\) \|/m);
    expect(md).toMatch(/^\| correctness \| inline \(baseline\) \|/m);
    expect(md).toMatch(/^\| arm \|.* mentions_m_0007 \|.* tool_pairing_intact \|/m);
    const html = readFileSync(join(dir, 'report.html'), 'utf8');
    expect(html).toContain('names_merchants');
    expect(html).toContain('mentions_m_0007');
  });

  it('list shows the config’s provider, criterion and check beside the registered ones', () => {
    const providers = JSON.parse(runCli(['list', 'providers', '--config', config, '--json']).stdout) as {
      id: string;
      source: string;
    }[];
    expect(providers.find((p) => p.id === 'gateway')?.source).toBe('config');
    expect(providers.find((p) => p.id === 'sim')?.source).toBe('registered');
    const criteria = JSON.parse(runCli(['list', 'criteria', '--config', config, '--json']).stdout) as {
      id: string;
      source: string;
    }[];
    expect(criteria.find((c) => c.id === 'names_merchants')?.source).toBe('config');
    const checks = JSON.parse(runCli(['list', 'checks', '--config', config, '--json']).stdout) as {
      id: string;
      source: string;
    }[];
    expect(checks.map((c) => `${c.id}:${c.source}`)).toContain('mentions_m_0007:config');
    expect(checks.map((c) => `${c.id}:${c.source}`)).toContain('markers_present:registered');
  });
});

describe('selection and bad input', () => {
  it('a suite selection’s `checks` runs only the checks it names', () => {
    const file = variant(`
      checks: [defineCheck({ name: 'short', run: ({ answer }) => ({ passed: answer.length < 10_000 }) })],
      suites: [{ id: 'mini', arms: ['inline'], checks: ['short', 'markers_present'] }],
      reporters: [],`);
    const out = tempDir();
    const r = runCli(['run', '--config', file, '--out', out, '--quiet']);
    expect(r.code, r.stderr).toBe(0);
    const dir = join(out, readdirSync(out)[0]!);
    const rows = readJsonl<ResultRow>(join(dir, 'results.jsonl'));
    expect(rows.map((row) => row.checks.map((c) => c.name))).toEqual([['markers_present', 'short']]);
    // reporters: [] writes no report at all; the journal is still there.
    expect(existsSync(join(dir, 'report.md'))).toBe(false);
  });

  it('an unknown reporter name fails with exit 2, naming the field and the valid names, before any run dir', () => {
    const out = tempDir();
    const r = runCli(['run', '--config', variant(`reporters: ['md', 'junit']`), '--out', out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('reporters[1]');
    expect(r.stderr).toMatch(/unknown reporter "junit"; valid: progress, md, csv, json, html/);
    expect(readdirSync(out)).toEqual([]);
  });

  it('a check named like a built-in one, or a selection naming an unknown check, fails with exit 2', () => {
    const shadow = variant(
      `checks: [defineCheck({ name: 'markers_present', run: () => ({ passed: true }) })]`,
    );
    const a = runCli(['run', '--config', shadow, '--dry-run']);
    expect(a.code).toBe(2);
    expect(a.stderr).toContain('check "markers_present" is a built-in check');
    const unknown = variant(`suites: [{ id: 'mini', checks: ['nope'] }]`);
    const b = runCli(['run', '--config', unknown, '--dry-run']);
    expect(b.code).toBe(2);
    expect(b.stderr).toMatch(/unknown check "nope"; valid: no_recap_signature, /);
  });

  it('a provider the config names without a factory is refused with the valid names', () => {
    const r = runCli(['run', '--config', variant(`provider: 'gateway'`), '--dry-run']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/provider: unknown provider "gateway"; valid: sim, anthropic, openai/);
  });
});
