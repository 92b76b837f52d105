/** A model call's failure, as a row's error_code (docs/results.md#error-codes). */
export type ProviderErrorCode =
  | 'provider_error'
  | 'unauthorized'
  | 'forbidden'
  | 'model_not_found'
  | 'context_length_exceeded'
  | 'bad_response'
  | 'batch_errored'
  | 'batch_expired'
  | 'batch_canceled'
  | 'batch_create_failed';

/** A receiver answer no score can be given to. */
export type UnusableCode = 'empty_answer' | 'refusal' | 'content_filter';

/** Bad input: the CLI exits 2 with one line; in a cell, the row's error_code. */
export type InputErrorCode =
  | 'usage'
  | 'config_invalid'
  | 'case_invalid'
  | `unknown_${string}`
  | 'import_failed'
  | 'cache_unavailable'
  | 'missing_key'
  | 'world_invalid'
  | 'bad_param'
  | 'bad_flag'
  | 'bad_format'
  | 'bad_sweep'
  | 'bad_strategy'
  | 'bad_journal'
  | 'bad_baseline'
  | 'baseline_schema'
  | 'duplicate_arm'
  | 'labeller_invalid'
  | 'labeller_failed'
  | 'batch_unsupported'
  | 'merge_mismatch'
  | 'merge_missing'
  | 'merge_unplanned'
  | 'no_baseline'
  | 'no_child'
  | 'no_spawn'
  | 'no_call'
  | 'no_journal'
  | 'not_a_run'
  | 'not_found'
  | 'not_generated'
  | 'nothing_to_run'
  | 'run_exists'
  | 'run_locked'
  | 'empty_run'
  | 'kit_input'
  | 'invalid';

/**
 * Every error code: what `HarnessError.code` holds and a result row's `error_code` names. `internal`
 * is an error that is not a HarnessError (a bug, or a user hook that threw).
 */
export type ErrorCode =
  | ProviderErrorCode
  | UnusableCode
  | InputErrorCode
  | 'subagent_contract'
  | 'tool_error'
  | 'source_failed'
  | 'classify_failed'
  | 'internal';

/**
 * Errors with a stable `code`. Causes are wrapped with `{cause}` so an SDK error keeps its status and
 * request id; nothing is flattened to a string that loses what it was.
 */
export class HarnessError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}

/** Bad user input (config, flags, case files): the CLI exits 2 with this one line. */
export class InputError extends HarnessError {
  declare readonly code: InputErrorCode;
  constructor(code: InputErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}

/** A bad config: names the file and the field (exit 2). */
export class ConfigError extends InputError {
  constructor(
    readonly file: string,
    readonly field: string,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super('config_invalid', `${file}: ${field}: ${detail}`, options);
  }
}

/** A bad case or suite file: names the file and the field (exit 2). */
export class CaseValidationError extends InputError {
  constructor(
    readonly file: string,
    readonly caseId: string | undefined,
    readonly field: string,
    detail: string,
  ) {
    super('case_invalid', `${file}${caseId ? ` (case ${caseId})` : ''}: ${field}: ${detail}`);
  }
}

/** An unknown strategy, suite, arm or case name, with the names there are (exit 2). */
export class UnknownNameError extends InputError {
  constructor(
    readonly kind: string,
    readonly given: string,
    readonly valid: readonly string[],
    where?: string,
  ) {
    super(
      `unknown_${kind}`,
      `${where ? `${where}: ` : ''}unknown ${kind} "${given}"; valid: ${valid.join(', ')}`,
    );
  }
}

export class ImportError extends InputError {
  constructor(
    readonly file: string,
    readonly line: number | undefined,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super('import_failed', `${file}${line !== undefined ? `:${line}` : ''}: ${detail}`, options);
  }
}

/** The response cache cannot be opened or created (not damage, which is moved aside): exit 2, one line. */
export class CacheError extends InputError {
  constructor(
    readonly path: string,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(
      'cache_unavailable',
      `response cache ${path}: ${detail} (fix cache.dir in the config, or run with --no-cache)`,
      options,
    );
  }
}

/** The source model could not produce a valid contract within its retries. */
export class SubagentContractError extends HarnessError {
  constructor(
    readonly validationErrors: string[],
    readonly attempts: number,
  ) {
    super(
      'subagent_contract',
      `research_result invalid after ${attempts} attempt(s): ${validationErrors.join('; ')}`,
    );
  }
}

/**
 * What failed: an HTTP error status, a timeout, a connection that failed, a 2xx body that could not be
 * read, or something else (a simulated failure names the kind it simulates).
 */
export type ProviderErrorKind = 'http' | 'timeout' | 'connection' | 'bad_body' | 'other';

export interface ProviderErrorOptions {
  cause?: unknown;
  /** The row's error_code. @default 'provider_error' */
  code?: ProviderErrorCode;
  /** @default 'http' with a status, else 'other' */
  kind?: ProviderErrorKind;
  /** Retries the call made before it failed for good (the SDK's, counted by the transport). @default 0 */
  retries?: number;
  /**
   * Every later call would fail the same way (a rejected key, a model the endpoint does not have):
   * the run stops after it instead of turning each remaining cell into the same error row.
   */
  fatal?: boolean;
  /** The endpoint the call went to, for the message that stops a run. */
  baseURL?: string;
}

/** A model call failed for good (retries exhausted, bad request, missing key). */
export class ProviderError extends HarnessError {
  declare readonly code: ProviderErrorCode;
  readonly kind: ProviderErrorKind;
  readonly retries: number;
  readonly fatal: boolean;
  readonly baseURL: string | undefined;
  constructor(
    readonly provider: string,
    message: string,
    readonly status?: number,
    readonly requestId?: string,
    options: ProviderErrorOptions = {},
  ) {
    super(options.code ?? 'provider_error', message, { cause: options.cause });
    this.kind = options.kind ?? (status !== undefined ? 'http' : 'other');
    this.retries = options.retries ?? 0;
    this.fatal = options.fatal === true;
    this.baseURL = options.baseURL;
  }
}

/** A provider error after which every later call would fail the same way: the run stops. */
export function isFatal(err: unknown): err is ProviderError {
  return err instanceof ProviderError && err.fatal;
}

/** A receiver answer no score can be given to: empty, refused, or stopped by a content filter. */
export class UnusableAnswerError extends HarnessError {
  declare readonly code: UnusableCode;
  constructor(
    code: UnusableCode,
    readonly stopReason: string,
    detail: string,
  ) {
    super(code, detail);
  }
}

export class MissingKeyError extends InputError {
  constructor(provider: string, envVar: string) {
    super(
      'missing_key',
      `provider "${provider}" needs ${envVar} in the environment (keys are read from the environment only)`,
    );
  }
}

/** A case's world cannot be materialised (a path outside the world, a malformed table): names the case and the field. */
export class WorldError extends InputError {
  constructor(
    readonly where: string,
    readonly field: string,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super('world_invalid', `${where}: ${field}: ${detail}`, options);
  }
}

/**
 * A live tool call the world cannot serve (bad argument, path outside the world, non-SELECT query, a
 * result over the limit). Never a cell failure: the loop turns it into an error result the model sees.
 */
export class ToolCallError extends HarnessError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('tool_error', message, options);
  }
}

/**
 * Your own live source (a config `sources` entry) failed for one cell: it exited non-zero, timed out,
 * could not start, or wrote nothing importable. The message ends with its stderr's last lines. A row,
 * never the run's end.
 */
export class SourceRunError extends HarnessError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('source_failed', message, options);
  }
}

/** One line describing an error for a result row: the message plus status and request id when known. */
export function describeError(err: unknown): { message: string; code: ErrorCode } {
  if (err instanceof ProviderError) {
    const bits = [err.message];
    if (err.status !== undefined) bits.push(`status ${err.status}`);
    if (err.requestId) bits.push(`request ${err.requestId}`);
    return { message: bits.join('; '), code: err.code };
  }
  if (err instanceof HarnessError) return { message: err.message, code: err.code };
  if (err instanceof Error) return { message: `${err.name}: ${err.message}`, code: 'internal' };
  return { message: String(err), code: 'internal' };
}
