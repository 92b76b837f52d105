import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { WorldTestRun } from '../core/index.ts';
import { ToolCallError } from '../core/errors.ts';

/** The test command's time limit when the world declares none. */
export const DEFAULT_TEST_TIMEOUT_MS = 30_000;
const MAX_OUTPUT_BYTES = 4 * 1024 * 1024;

/**
 * run_tests in a writable world (docs/live.md): the world's declared command, run in the cell's copy
 * of the repository — argv without a shell, so no model text is ever interpreted; the only text that
 * comes from a call is a scope name, and only one the world declares (appended as the last argument);
 * `{node}` is this Node binary, `{runner}` the directory of the runner's own files. The environment
 * holds no key of the harness's: PATH, and HOME and TMPDIR inside the copy. Past its time limit the
 * process is killed and the result is an error. Its output (stdout, then stderr) names the copy's
 * directory as `.`, so a result is the same text on every run. Exit code non-zero → an error result,
 * as agent harnesses mark a failing command.
 *
 * The command runs code the agent may have written: the copy, the scrubbed environment and the time
 * limit contain what it can see of the harness, not what a process can do (it is not a sandbox).
 */
export function runWorldTests(
  run: WorldTestRun,
  dirs: { root: string; repoDir: string; runnerDir: string },
  scope: string | undefined,
): { content: string; isError: boolean } {
  const expand = (a: string) =>
    a.replace(/\{node\}/g, process.execPath).replace(/\{runner\}/g, dirs.runnerDir);
  const [program, ...args] = run.argv.map(expand);
  const home = join(dirs.root, 'home');
  mkdirSync(join(home, 'tmp'), { recursive: true });
  const timeoutMs = run.timeoutMs ?? DEFAULT_TEST_TIMEOUT_MS;
  const r = spawnSync(program!, scope === undefined ? args : [...args, scope], {
    cwd: dirs.repoDir,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: home,
      TMPDIR: join(home, 'tmp'),
      LANG: 'C.UTF-8',
    },
    shell: false,
    timeout: timeoutMs,
    killSignal: 'SIGKILL',
    maxBuffer: MAX_OUTPUT_BYTES,
    encoding: 'utf8',
    windowsHide: true,
  });
  const hide = (t: string) => t.split(dirs.repoDir).join('.').split(dirs.root).join('.');
  if (r.error && (r.error as NodeJS.ErrnoException).code === 'ETIMEDOUT')
    throw new ToolCallError(`the tests ran past the ${timeoutMs} ms time limit and were stopped`);
  if (r.error && (r.error as NodeJS.ErrnoException).code === 'ENOENT')
    throw new ToolCallError(`the world's test command "${run.argv[0]}" was not found`);
  if (r.error) throw new ToolCallError(`the test command failed to run: ${hide(r.error.message)}`);
  const output = hide(
    [r.stdout, r.stderr]
      .filter((t) => t && t.trim())
      .join('\n')
      .trimEnd(),
  );
  const failed = r.status !== 0;
  return {
    content: output || `(no output; exit code ${r.status ?? r.signal})`,
    isError: failed,
  };
}
