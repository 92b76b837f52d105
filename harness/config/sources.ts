import { resolve } from 'node:path';
import { ConfigError } from '../core/errors.ts';
import { importFormats, type ImportFormat } from '../core/import-formats.ts';

/**
 * Your own agent as the live source (docs/live.md#your-own-agent-as-the-source): `sources.<name>` in eval.config.ts,
 * chosen with `run --mode live --source <name>`. A command is run once per live cell (cached by the
 * world, the brief, the command and `version`) with `{world}`, `{brief}`, `{out}` and `{budget}` in
 * its argv replaced; it writes its session to `{out}` in a format the importers read.
 */
export interface SourceCommandSpec {
  /** argv, run without a shell: `['node', 'agent.mjs', '--world', '{world}', '--brief', '{brief}', '--out', '{out}']`. */
  command: readonly string[];
  /** The importer that reads `{out}` (any of harness/importers' formats), or 'auto'. @default 'auto' */
  format?: ImportFormat | 'auto';
  /** The process group is killed after this long. @default 600000 */
  timeoutMs?: number;
  /**
   * The only environment the command gets besides PATH and HOME: a value, or `true` to pass the
   * harness's own value of that variable (an API key is passed only when listed here). @default {}
   */
  env?: Record<string, string | true>;
  /** Part of the cache key: change it when the agent changes. @default '0' */
  version?: string;
  /** Working directory (relative to the config file's directory). @default the config file's directory */
  cwd?: string;
}

/** What an in-process source gets: the same paths a command gets, plus the brief's text. */
export interface SourceInput {
  world: string;
  brief: string;
  briefFile: string;
  out: string;
  budget: number;
  signal: AbortSignal;
}

/**
 * An in-process source (`defineSource`): it writes its session to `input.out`, or returns it (a string
 * is written as is, anything else as JSON); either way `{out}` is then imported like a command's.
 */
export interface SourceFunctionSpec {
  run: (input: SourceInput) => unknown;
  format?: ImportFormat | 'auto';
  timeoutMs?: number;
  version?: string;
}

/** Your own agent as the live source: a command (argv with `{world}`, `{brief}`, `{out}`) or an in-process function (`defineSource`). */
export type SourceSpec = SourceCommandSpec | SourceFunctionSpec;

/** A source once checked: defaults filled, its name kept (rows and cache keys name it). */
export type ResolvedSource = (
  | { kind: 'command'; command: string[]; env: Record<string, string | true>; cwd: string }
  | { kind: 'function'; run: SourceFunctionSpec['run'] }
) & { name: string; format: ImportFormat | 'auto'; timeoutMs: number; version: string };

export const SOURCE_TIMEOUT_MS = 600_000;

/** Typed identity for an in-process source: `sources: { mine: defineSource(async (input) => ...) }`. */
export function defineSource(
  run: SourceFunctionSpec['run'] | SourceFunctionSpec,
  options: Omit<SourceFunctionSpec, 'run'> = {},
): SourceFunctionSpec {
  return typeof run === 'function' ? { ...options, run } : run;
}

const placeholders = new Set(['world', 'brief', 'out', 'budget']);
const commandFields = new Set(['command', 'format', 'timeoutMs', 'env', 'version', 'cwd']);
const functionFields = new Set(['run', 'format', 'timeoutMs', 'version']);

/** Every source checked at load, each error naming the file and the field; `--source` must name one. */
export function resolveSources(
  value: unknown,
  flag: string | undefined,
  file: string,
  baseDir: string,
): { sources: Record<string, ResolvedSource>; source: string | null } {
  const fail = (field: string, detail: string, got?: unknown): never => {
    throw new ConfigError(file, field, got === undefined ? detail : `${detail} (got ${show(got)})`);
  };
  if (value !== undefined && (typeof value !== 'object' || value === null || Array.isArray(value)))
    fail('sources', 'must be an object: source name → { command, format, timeoutMs, env, version }', value);
  const sources: Record<string, ResolvedSource> = {};
  for (const [name, spec] of Object.entries((value ?? {}) as Record<string, unknown>))
    sources[name] = resolveOne(name, spec, `sources.${name}`, fail, baseDir);
  if (flag !== undefined && !sources[flag]) {
    const names = Object.keys(sources);
    fail(
      '--source',
      `unknown source "${flag}"; ${names.length ? `valid: ${names.join(', ')}` : 'the config defines no `sources`'}`,
    );
  }
  return { sources, source: flag ?? null };
}

type Fail = (field: string, detail: string, got?: unknown) => never;

function resolveOne(name: string, spec: unknown, at: string, fail: Fail, baseDir: string): ResolvedSource {
  if (typeof spec !== 'object' || spec === null || Array.isArray(spec))
    fail(at, 'must be { command: [argv…] } or defineSource(fn)', spec);
  const s = spec as Record<string, unknown>;
  const isFunction = 'run' in s;
  const known = isFunction ? functionFields : commandFields;
  for (const key of Object.keys(s))
    if (!known.has(key)) fail(`${at}.${key}`, `unknown field; valid: ${[...known].join(', ')}`);
  const format = s.format ?? 'auto';
  if (format !== 'auto' && !(importFormats as readonly unknown[]).includes(format))
    fail(`${at}.format`, `must be 'auto' or an importer: ${importFormats.join(', ')}`, format);
  const timeoutMs = s.timeoutMs ?? SOURCE_TIMEOUT_MS;
  if (typeof timeoutMs !== 'number' || !Number.isInteger(timeoutMs) || timeoutMs < 1)
    fail(`${at}.timeoutMs`, 'must be a positive integer (milliseconds)', timeoutMs);
  const version = s.version ?? '0';
  if (typeof version !== 'string' || version === '')
    fail(`${at}.version`, 'must be a non-empty string', version);
  const common = {
    name,
    format: format as ImportFormat | 'auto',
    timeoutMs: timeoutMs as number,
    version: version as string,
  };
  if (isFunction) {
    if (typeof s.run !== 'function') fail(`${at}.run`, 'must be a function (use defineSource)', s.run);
    return { ...common, kind: 'function', run: s.run as SourceFunctionSpec['run'] };
  }
  return { ...common, kind: 'command', ...commandOf(s, at, fail, baseDir) };
}

function commandOf(s: Record<string, unknown>, at: string, fail: Fail, baseDir: string) {
  const argv = s.command;
  if (!Array.isArray(argv) || argv.length === 0 || argv.some((a) => typeof a !== 'string'))
    fail(`${at}.command`, 'must be a non-empty array of strings (argv, run without a shell)', argv);
  if ((argv as string[])[0] === '') fail(`${at}.command[0]`, 'must name the program to run', argv);
  // A placeholder typo ({wrold}) would reach the agent as literal text: it would run without its world.
  (argv as string[]).forEach((a, i) => {
    const unknown = [...a.matchAll(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g)].find((m) => !placeholders.has(m[1]!));
    if (unknown)
      fail(
        `${at}.command[${i}]`,
        `unknown placeholder ${unknown[0]}; valid: ${[...placeholders].map((p) => `{${p}}`).join(', ')}`,
        a,
      );
  });
  if (!(argv as string[]).some((a) => a.includes('{out}')))
    fail(`${at}.command`, 'must pass {out} (where the agent writes its session)', argv);
  const env = s.env ?? {};
  if (typeof env !== 'object' || env === null || Array.isArray(env))
    fail(`${at}.env`, "must be an object: variable → value (or true to pass the harness's own)", env);
  for (const [k, v] of Object.entries(env as Record<string, unknown>)) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(k)) fail(`${at}.env.${k}`, 'is not a valid variable name');
    if (typeof v !== 'string' && v !== true)
      fail(`${at}.env.${k}`, "must be a string, or true to pass the harness's own value", v);
  }
  const cwd = s.cwd ?? '.';
  if (typeof cwd !== 'string' || cwd === '') fail(`${at}.cwd`, 'must be a non-empty string', cwd);
  return {
    command: [...(argv as string[])],
    env: env as Record<string, string | true>,
    cwd: resolve(baseDir, cwd as string),
  };
}

function show(v: unknown): string {
  return typeof v === 'function' ? 'a function' : JSON.stringify(v);
}
