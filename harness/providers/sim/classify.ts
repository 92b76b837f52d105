import type { Assertion, ModelRequest, SurvivalMark, ToolCall } from '../../core/index.ts';
import { indexText } from '../../core/text/cues.ts';
import { readClaim } from '../../core/text/reading.ts';
import { draw } from './rng.ts';
import { readFenced, type SimJudgeOptions } from './judge.ts';

/**
 * The sim's survival classification (purpose 'classify'): it reads the fenced text and marks each
 * labelled assertion of the request's sim hints kept / overstated / absent, as a model reading the
 * text would: by the sim's reader (harness/core/text/reading.ts — the claim by its content, the
 * qualifier by a general lexicon of hedges, assumptions and open questions, never by the case's cue
 * strings), so a claim in any reasonable wording is marked as what it is. It differs from the
 * deterministic cue matcher in wording (any, not the case's cues) and in two documented ways more,
 * so agreement between the two is a real measurement even offline:
 *
 * - wider reading window: a qualifier anywhere in the same paragraph (lines between blank lines) as
 *   the claim counts;
 * - misreading: with probability `classifyMisread` (default 0.03) an assertion's mark is replaced by
 *   one of the other two marks, keyed by (request seed, assertion id).
 *
 * A confident claim is never marked overstated. With probability `malformed` the tool call is
 * unparseable (the retry path). Each present mark quotes the line the reader found the claim on; a
 * claim misread as present where the reader found nothing has no line to quote (its quote is empty),
 * and the judges read a mark whose quote is not in the text as absent after one retry
 * (judges/quotes.ts) — so of the misreads, only "present → absent" and "kept ↔ overstated" reach the
 * results; that follows from the quote check, it is not a second rate. The classifier runs for every
 * judge provider, the sim included, unless `judge.classify` is 'off'.
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
  const m = readClaim(indexText(text), a, { paragraph: true });
  if (!m.present) return 'absent';
  return a.kind === 'confident' || m.qualified ? 'kept' : 'overstated';
}

function misread(mark: SurvivalMark, a: Assertion, u: number, rate: number): SurvivalMark {
  if (u >= rate) return mark;
  const others = (['kept', 'overstated', 'absent'] as const).filter(
    (m) => m !== mark && !(a.kind === 'confident' && m === 'overstated'),
  );
  return others[Math.min(others.length - 1, Math.floor((u / rate) * others.length))]!;
}

/** The line the reader found the claim on, as written (original case). */
function quoteOf(a: Assertion, text: string): string {
  const m = readClaim(indexText(text), a, { paragraph: true });
  const line = m.present ? text.split('\n')[m.lines[0]!] : undefined;
  return (line ?? '').trim().slice(0, 160);
}
