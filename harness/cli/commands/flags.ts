import { InputError } from '../../core/errors.ts';

/**
 * Values of a list flag: repeatable and comma-separated alike (`--suite a,b --suite c` → a, b, c),
 * blanks dropped, in the order given. A value given twice stays twice, so the command can refuse it
 * (`--suite: suite "mini" is given twice`) rather than quietly run it once.
 */
export function listValues(flag: string | string[] | undefined, name?: string): string[] {
  const out: string[] = [];
  for (const v of ([] as string[]).concat(flag ?? []))
    for (const part of String(v).split(',')) {
      const s = part.trim();
      if (s) out.push(s);
    }
  // Given but naming nothing (`--suite ''`, `--arm ','`): not "no filter", which would run everything.
  if (name && flag !== undefined && out.length === 0)
    throw new InputError(
      'bad_flag',
      `${name}: names nothing (got ${JSON.stringify(([] as string[]).concat(flag).join(' '))}); give one or more, comma-separated`,
    );
  return out;
}

/** `--param key=value` pairs (values stay strings; the strategy's spec coerces them). */
export function parseParams(pairs: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of pairs) {
    const at = p.indexOf('=');
    if (at <= 0) throw new InputError('usage', `--param: expected key=value (got "${p}")`);
    out[p.slice(0, at)] = p.slice(at + 1);
  }
  return out;
}
