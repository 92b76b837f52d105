import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { CallRecord, ResultRow } from '../core/index.ts';
import { InputError, type InputErrorCode } from '../core/errors.ts';
import { readJsonl } from '../core/journal.ts';
import { readText } from '../core/text/read-text.ts';

/** The journals of one run directory, read for the gate, the baseline and merge. */
export interface RunFiles {
  dir: string;
  /** config.json as written by `run` (null when the directory has none, e.g. a hand-built journal). */
  config: Record<string, unknown> | null;
  rows: ResultRow[];
}

/** results.jsonl (required) and config.json (when present) of a run directory; bad input is an InputError (exit 2). */
export function readRunFiles(dir: string, opts: { requireConfig?: boolean } = {}): RunFiles {
  const journal = join(dir, 'results.jsonl');
  if (!existsSync(journal))
    throw new InputError('no_journal', `${journal}: not found (is ${dir} a run directory?)`);
  const rows = readJournal<ResultRow>(journal);
  for (const [i, r] of rows.entries()) {
    if (
      !r ||
      typeof r !== 'object' ||
      typeof r.cell_id !== 'string' ||
      typeof r.suite !== 'string' ||
      typeof r.arm !== 'string' ||
      typeof r.case_id !== 'string'
    ) {
      throw new InputError(
        'bad_journal',
        `${journal}: row ${i + 1}: not a result row (cell_id, suite, case_id, arm)`,
      );
    }
  }
  const configFile = join(dir, 'config.json');
  if (!existsSync(configFile)) {
    if (opts.requireConfig)
      throw new InputError(
        'not_a_run',
        `${configFile}: not found (is ${dir} a run directory written by handoff-eval run?)`,
      );
    return { dir, config: null, rows };
  }
  return { dir, config: readJsonObject(configFile, 'not_a_run'), rows };
}

/** calls.jsonl of a run directory ([] when absent). */
export function readCalls(dir: string): CallRecord[] {
  return readJournal<CallRecord>(join(dir, 'calls.jsonl'));
}

export function readJsonObject(file: string, code: InputErrorCode): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(readText(file));
  } catch (err) {
    throw new InputError(code, `${file}: not valid JSON (${(err as Error).message})`, { cause: err });
  }
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new InputError(code, `${file}: (root): must be a JSON object`);
  return value as Record<string, unknown>;
}

function readJournal<T>(file: string): T[] {
  try {
    return readJsonl<T>(file);
  } catch (err) {
    throw new InputError('bad_journal', (err as Error).message, { cause: err });
  }
}
