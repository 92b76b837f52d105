import type { Case } from '../harness/core/index.ts';
import { unscorableReason } from '../judges/criteria/needs.ts';

/**
 * What is legal in a case but makes a run measure less than it seems to (`validate` prints these as
 * warnings and still exits 0): criteria the case cannot be scored on for want of labels — a
 * scaffolded case with no assertions at all scored 5.00 on everything before issue 14 — and, in a
 * return or escalation case, assertions that do not say where the source put them.
 */
export function caseWarnings(c: Case): string[] {
  const out: string[] = [];
  const unscorable = c.criteria.flatMap((id) => {
    const why = unscorableReason(id, c);
    return why ? [{ id, why: why.replace(/^unscored: /, '') }] : [];
  });
  if (c.assertions.length === 0)
    out.push(
      `assertions: none labelled${unscorable.length ? ` — ${unscorable.map((u) => u.id).join(', ')} will be unscored` : ''}; label the session's claims (docs/cases.md)`,
    );
  else for (const u of unscorable) out.push(`criteria: ${u.id} will be unscored (${u.why})`);
  if (c.direction !== 'spawn')
    c.assertions.forEach((a, i) => {
      if (!a.location)
        out.push(`assertions[${i}].location: missing — the kind × location tables leave "${a.id}" out`);
    });
  return out;
}
