import { InputError } from '../core/errors.ts';

/** How a numeric flag is checked: as the config field it overrides (integer, range). */
export type NumberRule =
  'integer' | 'positive integer' | 'non-negative integer' | { from: number; to: number };

/**
 * A numeric flag's value, checked strictly: `--reps 1.5`, `--seed x` or `--concurrency 0` is one line
 * naming the flag (exit 2), never a NaN or a rounded value that runs. Takes the raw text (yargs
 * `coerce` on a string option; a repeated flag arrives as an array, of which the last counts) or a
 * number (flags passed programmatically, and defaults).
 */
export function checkNumberFlag(flag: string, raw: unknown, rule: NumberRule): number {
  const value = Array.isArray(raw) ? raw[raw.length - 1] : raw;
  const text = typeof value === 'string' ? value.trim() : String(value);
  const n = typeof value === 'number' ? value : parse(text, rule);
  const ok =
    Number.isFinite(n) &&
    (typeof rule === 'object'
      ? n >= rule.from && n <= rule.to
      : Number.isSafeInteger(n) && (rule === 'integer' || (rule === 'positive integer' ? n >= 1 : n >= 0)));
  if (!ok)
    throw new InputError(
      'bad_flag',
      `${flag}: must be ${describe(rule)} (got ${text === '' ? 'nothing' : text})`,
    );
  return n;
}

/** yargs `coerce` for a numeric flag declared as a string (so the text the user typed is still there). */
export function numberFlag(flag: string, rule: NumberRule): (raw: unknown) => number {
  return (raw) => checkNumberFlag(flag, raw, rule);
}

function parse(text: string, rule: NumberRule): number {
  // Integers as integers only: "1e3", "0x10", "1.0" are not what anyone types for a count or a seed.
  if (typeof rule === 'string') return /^[+-]?\d+$/.test(text) ? Number(text) : NaN;
  return /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text) ? Number(text) : NaN;
}

function describe(rule: NumberRule): string {
  return typeof rule === 'object'
    ? `a number from ${rule.from} to ${rule.to}`
    : `a${rule === 'integer' ? 'n' : ''} ${rule}`;
}
