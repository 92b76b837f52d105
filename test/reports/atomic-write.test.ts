import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, runCli } from '../support/cli.ts';
import { fixtureCases, tempDir } from '../support/mock-run.ts';
import { reportFiles } from '../../reports/write.ts';
import { writeFileAtomic } from '../../harness/core/atomic-write.ts';

/**
 * Whole-file artefacts (reports, config.json, baselines, merged runs, `--out` files) are written to a
 * temporary file and renamed over the target: a reader — or a kill at any instant — sees the old file
 * or the new one, never a truncated one (a kill once left a 0-byte report.md).
 */
describe('reports are replaced atomically', () => {
  it('a reader polling the reports while they are rewritten never sees a partial or empty file', async () => {
    const project = tempDir('atomic');
    writeFileSync(
      join(project, 'eval.config.ts'),
      `export default ${JSON.stringify({ casesDir: fixtureCases, reps: 40, cache: false })};\n`,
    );
    expect(runCli(['run', '--out', join(project, 'runs'), '--quiet'], { cwd: project }).code).toBe(0);
    const dir = join(project, 'runs', readdirSync(join(project, 'runs'))[0]!);
    const files = Object.values(reportFiles).map((f) => join(dir, f));
    const expected = new Map(files.map((f) => [f, readFileSync(f, 'utf8')]));
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(repoRoot, 'test/support/report-writer.ts'), dir, '2500'],
      { cwd: repoRoot },
    );
    let out = '';
    child.stdout.on('data', (d) => (out += String(d)));
    const exit = new Promise<number | null>((resolve) => child.on('close', resolve));
    let reads = 0;
    const torn: string[] = [];
    let running = true;
    void exit.then(() => (running = false));
    while (running) {
      for (const f of files) {
        let text: string;
        try {
          text = readFileSync(f, 'utf8');
        } catch (err) {
          torn.push(`${f}: ${(err as Error).message}`);
          continue;
        }
        reads++;
        if (text !== expected.get(f)) torn.push(`${f}: ${text.length} of ${expected.get(f)!.length} chars`);
      }
      await new Promise((r) => setImmediate(r));
    }
    expect(await exit).toBe(0);
    expect(Number(/wrote (\d+)/.exec(out)?.[1])).toBeGreaterThan(3);
    expect(reads).toBeGreaterThan(100);
    expect(torn.slice(0, 5)).toEqual([]);
    // No temporary file is left behind.
    expect(readdirSync(dir).filter((f) => /tmp/.test(f))).toEqual([]);
  });

  it('writeFileAtomic replaces the target whole and leaves no temporary file when the write fails', () => {
    const dir = tempDir('atomic-unit');
    const file = join(dir, 'baseline.json');
    writeFileAtomic(file, 'old\n');
    writeFileAtomic(file, 'new\n');
    expect(readFileSync(file, 'utf8')).toBe('new\n');
    // A target that is a directory: the rename fails, the error is thrown, no temp file remains.
    mkdirSync(join(dir, 'sub'));
    expect(() => writeFileAtomic(join(dir, 'sub'), 'x')).toThrow();
    expect(readdirSync(dir).sort()).toEqual(['baseline.json', 'sub']);
  });
});
