import type { Case } from '../harness/core/index.ts';
import { CaseValidationError } from '../harness/core/errors.ts';
import { allOnLine, indexText, matchClaim } from '../harness/core/text/cues.ts';
import { viewOf } from '../harness/core/transcript/view.ts';
import { checkWorld } from '../harness/live/world.ts';
import { locationProblem } from './locations.ts';
import { ownershipOf } from '../harness/core/transcript/session-shape.ts';

/**
 * Checks of meaning the schema cannot express: labels that would make the survival matcher lie.
 * - a claim's own text must match its cues without a qualifier; a hedge's statement must carry one;
 * - caveats and contradictions name existing assertions; the spawn call exists in the source;
 * - a reference fact's or evidence item's own text (and the orchestration request) carries all of its
 *   cues on one line: the sim states a fact by its text and the judge finds it by its cues, so a text
 *   without its cues could never be recognised, even when quoted verbatim;
 * - a labelled location agrees with the transcript (cases/locations.ts): a `mid_transcript` claim is
 *   not restated in the final message, a tool-result claim is never stated by the source;
 * - a `sessionShape` label agrees with the shape the transcript shows (its agents and turns): the
 *   framing and the ownership checks follow the transcript, so a contradicting label is an error
 *   rather than a silent second opinion.
 */
export function checkCase(c: Case, file: string): void {
  const fail = (field: string, detail: string): never => {
    throw new CaseValidationError(file, c.id, field, detail);
  };
  if (c.world) checkWorld(c.world, `${file} (case ${c.id})`);
  const ids = new Set<string>();
  c.assertions.forEach((a, i) => {
    if (ids.has(a.id)) fail(`assertions[${i}].id`, `duplicate id "${a.id}"`);
    ids.add(a.id);
    const claim = matchClaim(indexText(a.claim), a);
    if (!claim.present)
      fail(`assertions[${i}].claim`, `does not contain all of its cues (${a.cues.join(' | ')})`);
    const statement = matchClaim(indexText(a.statement), a);
    if (!statement.present)
      fail(`assertions[${i}].statement`, `does not contain all of its cues (${a.cues.join(' | ')})`);
    if (a.kind === 'confident') return;
    if (!a.qualifierCues?.length) fail(`assertions[${i}].qualifierCues`, `required for kind "${a.kind}"`);
    if (claim.qualified)
      fail(`assertions[${i}].claim`, 'must be the bare proposition, without a qualifier cue');
    if (!statement.qualified)
      fail(
        `assertions[${i}].statement`,
        `must carry one of its qualifier cues (${a.qualifierCues!.join(' | ')})`,
      );
  });
  checkCueItems(c.reference.facts, 'reference.facts', fail);
  checkCueItems(c.reference.evidence ?? [], 'reference.evidence', fail);
  const o = c.reference.orchestration;
  if (
    o &&
    !allOnLine(
      o.request.toLowerCase(),
      o.cues.map((x) => x.toLowerCase()),
    )
  )
    fail(
      'reference.orchestration.request',
      `does not contain all of its cues on one line (${o.cues.join(' | ')})`,
    );
  c.reference.caveats.forEach(
    (id, i) => ids.has(id) || fail(`reference.caveats[${i}]`, `no assertion with id "${id}"`),
  );
  c.reference.contradictions?.forEach((x, i) =>
    x.between.forEach(
      (id) => ids.has(id) || fail(`reference.contradictions[${i}]`, `no assertion with id "${id}"`),
    ),
  );
  if (c.direction === 'spawn' && c.spawnCallId) {
    const found = c.source.messages.some((m) => m.toolCalls?.some((t) => t.id === c.spawnCallId));
    if (!found) fail('spawnCallId', `no tool call "${c.spawnCallId}" in the source transcript`);
  }
  if (c.source.messages.length === 0) fail('source.messages', 'the source transcript is empty');
  checkAgainstTranscript(c, fail);
  viewOf(c.source);
}

/** The labels that describe the transcript itself: where each claim is, how the session came to be. */
function checkAgainstTranscript(c: Case, fail: (field: string, detail: string) => never): void {
  c.assertions.forEach((a, i) => {
    const where = locationProblem(c, a);
    if (where) fail(`assertions[${i}].location`, `"${a.location}", but ${where}`);
  });
  if (c.sessionShape) {
    const derived = ownershipOf(c);
    if (derived.shape !== c.sessionShape)
      fail(
        'sessionShape',
        `labelled "${c.sessionShape}", but the transcript shows "${derived.shape}": ${derived.why}`,
      );
  }
}

function checkCueItems(
  items: readonly { readonly id: string; readonly text: string; readonly cues: readonly string[] }[],
  field: string,
  fail: (field: string, detail: string) => never,
): void {
  const seen = new Set<string>();
  items.forEach((item, i) => {
    if (seen.has(item.id)) fail(`${field}[${i}].id`, `duplicate id "${item.id}"`);
    seen.add(item.id);
    if (
      !indexText(item.text)
        .getLines()
        .some((l) => allOnLine(l, item.cues))
    )
      fail(`${field}[${i}].text`, `does not contain all of its cues on one line (${item.cues.join(' | ')})`);
  });
}
