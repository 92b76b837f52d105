import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.ts';
import { syntheticRows } from './synthetic.ts';

const root = mkdtempSync(join(tmpdir(), 'handoff-report-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function journalDir(name: string, lines: string[]): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'results.jsonl'), `${lines.join('\n')}\n`);
  return dir;
}

describe('handoff-eval report <run-dir>', () => {
  const rows = syntheticRows({
    seed: 21,
    cases: 8,
    reps: 2,
    arms: ['inline', 'summary', 'structured-contract'],
    suite: 'ledgerline',
    criteria: ['correctness', 'caveat_carrying'],
  });
  const lines = rows.map((r) => JSON.stringify(r));

  it('rebuilds every format from the journal alone, byte-identical in any journal order', () => {
    const a = journalDir('a', lines);
    const b = journalDir('b', [...lines].reverse());
    for (const dir of [a, b]) {
      const r = runCli(['report', dir]);
      expect(r.code, r.stderr).toBe(0);
      expect(
        r.stdout
          .trim()
          .split('\n')
          .map((l) => l.split('/').pop()),
      ).toEqual(['report.md', 'results.csv', 'report.json', 'report.html']);
    }
    for (const f of ['report.md', 'results.csv', 'report.json', 'report.html'])
      expect(readFileSync(join(b, f), 'utf8'), f).toBe(readFileSync(join(a, f), 'utf8'));
  });

  it('writes only the formats asked for', () => {
    const dir = journalDir('only-json', lines);
    const r = runCli(['report', dir, '--format', 'json,md']);
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(['report.json', 'report.md', 'results.jsonl']);
    expect(JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')).suites[0].arms).toHaveLength(3);
  });

  it('fails with one line and exit 2 on an unknown format or a missing journal', () => {
    const bad = runCli(['report', journalDir('bad', lines), '--format', 'md,pdf']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--format: unknown format "pdf"/);
    const none = runCli(['report', join(root, 'nowhere')]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/results\.jsonl: not found/);
  });
});

describe('handoff-eval run writes every report format', () => {
  it('md, csv, json and html, each marked simulated; report rebuilds the same report.json', () => {
    const out = join(root, 'runs');
    const r = runCli(['run', '--config', 'test/fixtures/eval.config.ts', '--out', out, '--quiet']);
    expect(r.code, r.stderr).toBe(0);
    const [id] = readdirSync(out);
    const dir = join(out, id!);
    for (const f of ['report.md', 'results.csv', 'report.json', 'report.html'])
      expect(existsSync(join(dir, f)), f).toBe(true);
    expect(readFileSync(join(dir, 'report.md'), 'utf8')).toMatch(
      /simulated — not a measurement of any model/i,
    );
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toMatch(
      /simulated — not a measurement of any model/i,
    );
    expect(JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')).simulated).toBe(true);
    const rebuilt = join(root, 'rebuilt');
    mkdirSync(rebuilt);
    copyFileSync(join(dir, 'results.jsonl'), join(rebuilt, 'results.jsonl'));
    expect(runCli(['report', rebuilt, '--format', 'json']).code).toBe(0);
    expect(readFileSync(join(rebuilt, 'report.json'), 'utf8')).toBe(
      readFileSync(join(dir, 'report.json'), 'utf8'),
    );
  });
});
