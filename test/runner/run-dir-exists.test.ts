import { afterAll, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveConfig } from '../../harness/config/resolve-config.ts';
import { InputError } from '../../harness/core/errors.ts';
import { createRunDirectory } from '../../harness/runner/run-dir.ts';

/**
 * Two runs named alike (same millisecond, same 4 random hex digits) must not share a directory: the
 * second is refused. The clock and the random suffix are held still to make the names collide.
 */
vi.mock('node:crypto', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:crypto')>();
  return { ...real, randomBytes: (n: number) => Buffer.alloc(n, 0xab) };
});

const made: string[] = [];
afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('createRunDirectory', () => {
  it('refuses a run directory that already exists, naming it, and leaves its contents alone', () => {
    const out = mkdtempSync(join(tmpdir(), 'he-run-exists-'));
    made.push(out);
    const config = { ...resolveConfig({ cache: false }, {}, 'eval.config.ts'), outDir: out };
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-12-04T03:30:00.123Z') });
    try {
      const first = createRunDirectory(config);
      expect(first.runId).toBe('2026-12-04T03-30-00-123-abab');
      writeFileSync(join(first.dir, 'results.jsonl'), '{"kept":true}\n');
      let err: unknown;
      try {
        createRunDirectory(config);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(InputError);
      expect((err as InputError).code).toBe('run_exists');
      expect((err as Error).message).toBe(`run directory ${first.dir} already exists`);
      expect(readdirSync(first.dir)).toEqual(['results.jsonl']);
    } finally {
      vi.useRealTimers();
    }
  });
});
