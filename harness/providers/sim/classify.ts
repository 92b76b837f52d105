import type { Assertion, ModelRequest, SurvivalMark, ToolCall } from '../../core/index.ts';
import { allOnLine, indexText, matchClaim } from '../../core/text/cues.ts';
import { draw } from './rng.ts';
import { readFenced, type SimJudgeOptions } from './judge.ts';

/**
 * The sim's survival classification (purpose 'classify'): it reads the fenced text and marks each
 * labelled assertion of the request's sim hints kept / overstated / absent, as a model reading the
 * text would — which differs from the deterministic matcher in two documented ways, so agreement
 * between the two is a real measurement even offline:
 *
 * - wider reading window: a qualifier anywhere in the same paragraph (lines between blank lines) as
 *   the claim counts, where the matcher accepts only the claim's line or the line before;
 * - misreading: with probability `classifyMisread` (default 0.03) an assertion's mark is replaced by
 *   one of the other two marks, keyed by (request seed, assertion id).
 *
 * A confident claim is never marked overstated. With probability `malformed` the tool call is
 * unparseable (the retry path). The harness runs this only when asked to: by default the LLM
 * classification runs with real judge providers, not with the sim.
 */
export function simClassify(req: ModelRequest, opts: SimJudgeOptions): ToolCall {
  const assertions = req.sim?.assertions ?? [];
  if (draw(req.seed, 'malformed') < opts.malformed)
    return { id: 'classify_0', name: 'classify_survival', input: { marks: null } };
  const text = readFenced(req).inside;
  const marks = assertions.map((a) => {
    const read = readMark(a, text);
    const mark = misread(read, a, draw(req.seed, 'misread', a.id), opts.classifyMisread);
    return { assertion_id: a.id, mark, quote: mark === 'absent' ? '' : quoteOf(a, text) };
  });
  return { id: 'classify_0', name: 'classify_survival', input: { marks } };
}

function readMark(a: Assertion, text: string): SurvivalMark {
  const m = matchClaim(indexText(text), a);
  if (!m.present) return 'absent';
  if (a.kind === 'confident' || m.qualified) return 'kept';
  return qualifiedInParagraph(a, text) ? 'kept' : 'overstated';
}

function qualifiedInParagraph(a: Assertion, text: string): boolean {
  const qualifiers = (a.qualifierCues ?? []).map((q) => q.toLowerCase());
  return text
    .toLowerCase()
    .split(/\n\s*\n/)
    .some(
      (para) =>
        para.split('\n').some((l) => allOnLine(l, a.cues)) && qualifiers.some((q) => para.includes(q)),
    );
}

function misread(mark: SurvivalMark, a: Assertion, u: number, rate: number): SurvivalMark {
  if (u >= rate) return mark;
  const others = (['kept', 'overstated', 'absent'] as const).filter(
    (m) => m !== mark && !(a.kind === 'confident' && m === 'overstated'),
  );
  return others[Math.min(others.length - 1, Math.floor((u / rate) * others.length))]!;
}

function quoteOf(a: Assertion, text: string): string {
  const line = text.split('\n').find((l) => allOnLine(l.toLowerCase(), a.cues));
  return (line ?? '').trim().slice(0, 160);
}
