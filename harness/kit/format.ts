import type { CheckFailure, CheckReport } from './types.ts';
import { invariantNames } from './types.ts';

/** How many failures are printed in full (the rest are counted per invariant). */
const SHOWN = 12;

/** The report `handoff-eval check-strategy` prints: a line per invariant, then each failure in full. */
export function renderCheckReport(r: CheckReport): string {
  const lines = [
    `check-strategy ${r.strategy}: ${r.handoffs} handoffs checked over ${r.variants.length} params variant(s), ` +
      `${r.inputs.transcripts} real transcripts, ${r.inputs.cases} suite cases, ${r.inputs.generated} generated sessions`,
    '',
  ];
  const failed = new Map<string, number>();
  for (const f of r.failures) failed.set(f.invariant, (failed.get(f.invariant) ?? 0) + 1);
  for (const name of invariantNames) {
    const n = r.checked[name];
    if (n === 0) continue;
    const bad = failed.get(name) ?? 0;
    lines.push(`  ${bad ? 'FAIL' : 'ok  '}  ${name.padEnd(14)} ${n} checked${bad ? `, ${bad} failed` : ''}`);
  }
  for (const [name, reason] of Object.entries(r.declared ?? {}))
    lines.push(`  decl  ${name.padEnd(14)} broken by design, not checked: ${reason}`);
  const undeclared = invariantNames.filter((n) => r.checked[n] === 0 && !(r.declared ?? {})[n]);
  if (undeclared.length) lines.push(`  (not applicable or not declared: ${undeclared.join(', ')})`);
  if (r.errored.length)
    lines.push(
      '',
      `${r.errored.length} input(s) ended in a HarnessError (in a run, an error row), e.g. ${r.errored[0]!.input}: ${r.errored[0]!.error}`,
    );
  for (const f of r.failures.slice(0, SHOWN)) lines.push('', ...failureLines(f));
  if (r.failures.length > SHOWN) lines.push('', `… and ${r.failures.length - SHOWN} more failure(s)`);
  lines.push(
    '',
    r.passed
      ? `passed: ${r.strategy} holds every invariant it was checked for${Object.keys(r.declared ?? {}).length ? ` (declared broken by design: ${Object.keys(r.declared).join(', ')})` : ''}`
      : `${r.failures.length} failure(s)`,
  );
  return `${lines.join('\n')}\n`;
}

export function failureLines(f: CheckFailure): string[] {
  const out = [`FAIL ${f.invariant} — ${f.input}`, `  params ${JSON.stringify(f.params)}`, `  ${f.detail}`];
  if (f.message) {
    const where =
      f.message.index === 'system' ? 'the system prompt' : `${f.message.in} message ${f.message.index}`;
    out.push(`  ${where}: ${f.message.excerpt}`);
  }
  return out;
}
