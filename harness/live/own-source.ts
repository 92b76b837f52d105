import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Transcript } from '../core/index.ts';
import { HarnessError, SourceRunError } from '../core/errors.ts';
import type { ResolvedSource } from '../config/sources.ts';
import { importTranscript } from '../importers/import-transcript.ts';

/**
 * Runs a user's own agent as the live source of one cell (docs/live.md#your-own-agent-as-the-source): the brief is
 * written to a file, the command runs with `{world}`, `{brief}`, `{out}`, `{budget}` replaced (argv,
 * no shell; env only what the source declares plus PATH and HOME), and `{out}` is imported with the
 * source's format. A run is cached by the world, the brief, the budget, the command and the source's
 * `version` (the session file is kept, so a re-run imports the same session); failures are never cached.
 */
export interface OwnSourceRun {
  transcript: Transcript;
  /** Wall time of the agent's process (from the cache: of the run that made the session). */
  wallMs: number;
  cached: boolean;
  format: string;
}

export interface OwnSourceInput {
  /** The materialised world's directory. */
  worldRoot: string;
  /** What identifies the world in the cache key (the case's world as written). */
  worldKey: unknown;
  brief: string;
  budget: number;
  /** The response cache's directory (sessions kept under `sources/`), or null when the cache is off. */
  cacheDir: string | null;
  /** Names the case in errors. */
  where: string;
}

/** Stderr kept per run (the tail is what an error row shows). */
const STDERR_KEEP = 16_384;
const TAIL_LINES = 8;
/**
 * The largest `{out}` imported: the largest real session in ../shared/transcripts is 0.8 MB; a 50 MB
 * one kept a run busy for minutes and gigabytes while the strategies rendered it (issue 29 probe).
 */
export const MAX_SESSION_BYTES = 16 * 1024 * 1024;
/** A declared env value at least this long is redacted from an error's stderr tail. */
const REDACT_MIN = 8;
/** After SIGTERM to the group, SIGKILL this much later. */
const KILL_GRACE_MS = 2_000;

const inflight = new Map<string, Promise<OwnSourceRun>>();

export function runOwnSource(src: ResolvedSource, input: OwnSourceInput): Promise<OwnSourceRun> {
  const key = cacheKey(src, input);
  // With the cache off every cell runs the agent (as every arm runs its own loop with --no-cache).
  if (!input.cacheDir) return runOrCached(src, input, key);
  // Concurrent cells with one key share one run: it is the session the cache would serve them.
  const running = inflight.get(key);
  if (running) return running;
  const p = runOrCached(src, input, key).finally(() => inflight.delete(key));
  inflight.set(key, p);
  return p;
}

async function runOrCached(src: ResolvedSource, input: OwnSourceInput, key: string): Promise<OwnSourceRun> {
  const cached = input.cacheDir ? join(input.cacheDir, 'sources', key) : null;
  if (cached && existsSync(join(cached, 'meta.json'))) {
    const meta = JSON.parse(readFileSync(join(cached, 'meta.json'), 'utf8')) as { wallMs: number };
    const imported = importSession(src, join(cached, 'session'), '', input.where);
    return { ...imported, wallMs: meta.wallMs, cached: true };
  }
  const tmp = mkdtempSync(join(tmpdir(), 'handoff-source-'));
  try {
    const briefFile = join(tmp, 'brief.md');
    const out = join(tmp, 'session.json');
    writeFileSync(briefFile, input.brief);
    const paths = { world: input.worldRoot, brief: briefFile, out, budget: String(input.budget) };
    const started = performance.now();
    const stderr =
      src.kind === 'command'
        ? await runCommand(src, paths, input.where)
        : await runFunction(src, { ...paths, briefText: input.brief }, input.budget, input.where);
    const wallMs = Math.round(performance.now() - started);
    const imported = importSession(src, out, stderr, input.where);
    if (cached) {
      mkdirSync(cached, { recursive: true });
      copyFileSync(out, join(cached, 'session'));
      writeFileSync(
        join(cached, 'meta.json'),
        `${JSON.stringify({ source: src.name, version: src.version, wallMs })}\n`,
      );
    }
    return { ...imported, wallMs, cached: false };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

function cacheKey(src: ResolvedSource, input: OwnSourceInput): string {
  const how =
    src.kind === 'command'
      ? // Env values passed through from the harness (true) are keys: only their names enter the key.
        { command: src.command, env: src.env, cwd: src.cwd }
      : { fn: src.name };
  const text = JSON.stringify({
    world: input.worldKey,
    brief: input.brief,
    budget: input.budget,
    how,
    format: src.format,
    version: src.version,
  });
  return createHash('sha256').update(text).digest('hex').slice(0, 32);
}

type Paths = { world: string; brief: string; out: string; budget: string };

function fill(arg: string, p: Paths): string {
  return arg.replace(/\{(world|brief|out|budget)\}/g, (_, k: keyof Paths) => p[k]);
}

function envOf(declared: Record<string, string | true>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const k of ['PATH', 'HOME']) if (process.env[k] !== undefined) env[k] = process.env[k];
  for (const [k, v] of Object.entries(declared)) {
    const value = v === true ? process.env[k] : v;
    if (value !== undefined) env[k] = value;
  }
  return env;
}

/** Resolves with the stderr text on exit 0; rejects with its tail on a non-zero exit, a signal or the timeout. */
function runCommand(
  src: Extract<ResolvedSource, { kind: 'command' }>,
  p: Paths,
  where: string,
): Promise<string> {
  const [program, ...args] = src.command.map((a) => fill(a, p));
  return new Promise((resolve, reject) => {
    let stderr = '';
    let timedOut = false;
    // detached: the agent leads its own process group, so a timeout kills what it started too.
    const child = spawn(program!, args, {
      cwd: src.cwd,
      env: envOf(src.env),
      detached: true,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (d: string) => {
      stderr = (stderr + d).slice(-STDERR_KEEP);
    });
    const killGroup = (signal: NodeJS.Signals) => {
      try {
        process.kill(-child.pid!, signal);
      } catch {
        // The group is already gone.
      }
    };
    let hard: NodeJS.Timeout | undefined;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup('SIGTERM');
      hard = setTimeout(() => killGroup('SIGKILL'), KILL_GRACE_MS);
    }, src.timeoutMs);
    const done = () => {
      clearTimeout(timer);
      if (hard) clearTimeout(hard);
    };
    child.on('error', (err) => {
      done();
      reject(failure(src, where, `could not start ${JSON.stringify(program)}: ${err.message}`, stderr, err));
    });
    child.on('close', (code, signal) => {
      done();
      // Whatever the agent left running in its group goes with it.
      killGroup('SIGKILL');
      if (timedOut)
        reject(failure(src, where, `timed out after ${src.timeoutMs} ms (process group killed)`, stderr));
      else if (code !== 0)
        reject(failure(src, where, signal ? `killed by ${signal}` : `exited with code ${code}`, stderr));
      else resolve(stderr);
    });
  });
}

async function runFunction(
  src: Extract<ResolvedSource, { kind: 'function' }>,
  p: Paths & { briefText: string },
  budget: number,
  where: string,
): Promise<string> {
  const abort = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      abort.abort();
      reject(failure(src, where, `timed out after ${src.timeoutMs} ms`, ''));
    }, src.timeoutMs);
  });
  try {
    const input = {
      world: p.world,
      brief: p.briefText,
      briefFile: p.brief,
      out: p.out,
      budget,
      signal: abort.signal,
    };
    const value = await Promise.race([Promise.resolve().then(() => src.run(input)), timeout]);
    if (value !== undefined && value !== null)
      writeFileSync(p.out, typeof value === 'string' ? value : JSON.stringify(value));
    return '';
  } catch (err) {
    if (err instanceof SourceRunError) throw err;
    throw failure(
      src,
      where,
      `threw ${(err as Error)?.name ?? 'Error'}: ${(err as Error)?.message ?? String(err)}`,
      '',
      err,
    );
  } finally {
    clearTimeout(timer);
  }
}

function importSession(src: ResolvedSource, out: string, stderr: string, where: string) {
  if (!existsSync(out) || (statSync(out).isFile() && statSync(out).size === 0))
    throw failure(src, where, 'wrote nothing to {out}', stderr);
  const size = statSync(out).size;
  if (size > MAX_SESSION_BYTES)
    throw failure(
      src,
      where,
      `wrote ${size} bytes to {out}; the limit is ${MAX_SESSION_BYTES / 2 ** 20} MB`,
      stderr,
    );
  let imported: { transcript: Transcript; format: string };
  try {
    const { transcript, stats } = importTranscript(out, { from: src.format });
    imported = { transcript, format: stats.format };
  } catch (err) {
    const detail = err instanceof HarnessError ? err.message.replace(out, '{out}') : String(err);
    throw failure(
      src,
      where,
      `wrote nothing importable to {out} (format ${src.format}): ${detail}`,
      stderr,
      err,
    );
  }
  // Checked before caching: a failure is never cached. Leading user messages are the brief, so any
  // assistant message comes after it.
  if (!imported.transcript.messages.some((m) => m.role === 'assistant'))
    throw failure(
      src,
      where,
      `its session (${imported.format}) holds no assistant message after the brief`,
      stderr,
    );
  return imported;
}

function failure(
  src: ResolvedSource,
  where: string,
  what: string,
  stderr: string,
  cause?: unknown,
): SourceRunError {
  const tail = stderrTail(redact(stderr, src));
  return new SourceRunError(
    `source "${src.name}" (${where}): ${what}${tail ? `; stderr: ${tail}` : '; stderr: (empty)'}`,
    cause === undefined ? undefined : { cause },
  );
}

/** The last lines of what the agent wrote to stderr, on one line (an error row holds one line). */
export function stderrTail(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l.trim() !== '');
  return lines.slice(-TAIL_LINES).join(' ⏎ ').slice(-1_000);
}

/** Declared env values (the harness's own, passed with `true`, and literal ones) never reach a row. */
function redact(stderr: string, src: ResolvedSource): string {
  if (src.kind !== 'command') return stderr;
  let text = stderr;
  for (const [k, v] of Object.entries(src.env)) {
    const value = v === true ? process.env[k] : v;
    if (value && value.length >= REDACT_MIN) text = text.split(value).join(`[env ${k}]`);
  }
  return text;
}
