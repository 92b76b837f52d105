import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ResolvedSource } from '../../harness/config/sources.ts';
import { runOwnSource } from '../../harness/live/own-source.ts';

/**
 * A hostile or broken own agent (docs/live.md#when-it-fails), run straight through runOwnSource: what
 * it leaks to stderr, a session too large to hand on, a session with no assistant message. Each is a
 * SourceRunError naming why; none is cached; no declared env value reaches the error text.
 */
const node = (script: string, env: Record<string, string | true> = {}): ResolvedSource => ({
  kind: 'command',
  name: 'hostile',
  command: [process.execPath, '-e', script, '{out}'],
  env,
  cwd: tmpdir(),
  format: 'openai',
  timeoutMs: 20_000,
  version: '1',
});

function input() {
  const dir = mkdtempSync(join(tmpdir(), 'own-source-hostile-'));
  return {
    worldRoot: dir,
    worldKey: { files: {} },
    brief: 'Find it.',
    budget: 12,
    cacheDir: join(dir, 'cache'),
    where: 'case c1',
  };
}

const cachedRuns = (i: { cacheDir: string }) =>
  existsSync(join(i.cacheDir, 'sources')) ? readdirSync(join(i.cacheDir, 'sources')).length : 0;

describe('a hostile own source', () => {
  it('a declared env value it prints to stderr is redacted from the error (the name is kept)', async () => {
    const src = node(
      "process.stderr.write('key=' + process.env.PROBE_TOKEN + ' model=' + process.env.M + '\\n'); process.exit(5);",
      { PROBE_TOKEN: 'sk-probe-0123456789abcdef', M: 'x' },
    );
    const err = await runOwnSource(src, input()).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toContain('exited with code 5');
    expect((err as Error).message).toContain('key=[env PROBE_TOKEN]');
    expect((err as Error).message).not.toContain('sk-probe-0123456789abcdef');
    // A value too short to be a secret stays readable (redacting "x" would mangle every line).
    expect((err as Error).message).toContain('model=x');
  });

  it('a session larger than the limit is an error row before any import, and is not cached', async () => {
    const i = input();
    const big = `require('fs').writeFileSync(process.argv[1], JSON.stringify({messages:[{role:'user',content:'b'},{role:'assistant',content:'A'.repeat(${17 * 1024 * 1024})}]}))`;
    const err = await runOwnSource(node(big), i).catch((e: Error) => e);
    expect((err as Error).message).toMatch(/wrote \d+ bytes to \{out\}; the limit is 16 MB/);
    expect(cachedRuns(i)).toBe(0);
  });

  it('a session with no assistant message is an error with the stderr tail, and is not cached', async () => {
    const i = input();
    const none =
      "process.stderr.write('thinking...\\n'); require('fs').writeFileSync(process.argv[1], JSON.stringify({messages:[{role:'user',content:'b'}]}))";
    const err = await runOwnSource(node(none), i).catch((e: Error) => e);
    expect((err as Error).message).toMatch(
      /holds no assistant message after the brief; stderr: thinking\.\.\./,
    );
    expect(cachedRuns(i)).toBe(0);
  });
});
