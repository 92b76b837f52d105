import type { Case } from '../harness/types.ts';
import { CaseValidationError } from '../harness/errors.ts';
import { indexText, matchClaim } from '../harness/text/cues.ts';
import { viewOf } from '../harness/transcript/view.ts';

/**
 * Checks of meaning the schema cannot express: labels that would make the survival matcher lie.
 * - a claim's own text must match its cues without a qualifier; a hedge's statement must carry one;
 * - caveats and contradictions name existing assertions; the spawn call exists in the source.
 */
export function checkCase(c: Case, file: string): void {
  const fail = (field: string, detail: string): never => {
    throw new CaseValidationError(file, c.id, field, detail);
  };
  const ids = new Set<string>();
  c.assertions.forEach((a, i) => {
    if (ids.has(a.id)) fail(`assertions[${i}].id`, `duplicate id "${a.id}"`);
    ids.add(a.id);
    const claim = matchClaim(indexText(a.claim), a);
    if (!claim.present) fail(`assertions[${i}].claim`, `does not contain all of its cues (${a.cues.join(' | ')})`);
    const statement = matchClaim(indexText(a.statement), a);
    if (!statement.present) fail(`assertions[${i}].statement`, `does not contain all of its cues (${a.cues.join(' | ')})`);
    if (a.kind === 'confident') return;
    if (!a.qualifierCues?.length) fail(`assertions[${i}].qualifierCues`, `required for kind "${a.kind}"`);
    if (claim.qualified) fail(`assertions[${i}].claim`, 'must be the bare proposition, without a qualifier cue');
    if (!statement.qualified) fail(`assertions[${i}].statement`, `must carry one of its qualifier cues (${a.qualifierCues!.join(' | ')})`);
  });
  c.reference.caveats.forEach((id, i) => ids.has(id) || fail(`reference.caveats[${i}]`, `no assertion with id "${id}"`));
  c.reference.contradictions?.forEach((x, i) => x.between.forEach((id) => ids.has(id) || fail(`reference.contradictions[${i}]`, `no assertion with id "${id}"`)));
  if (c.direction === 'spawn' && c.spawnCallId) {
    const found = c.source.messages.some((m) => m.toolCalls?.some((t) => t.id === c.spawnCallId));
    if (!found) fail('spawnCallId', `no tool call "${c.spawnCallId}" in the source transcript`);
  }
  if (c.source.messages.length === 0) fail('source.messages', 'the source transcript is empty');
  viewOf(c.source);
}
