import type { Assertion, ModelRequest, Reference } from '../../core/index.ts';
import { lineIndicesWithAll, lineWithAll, type TextIndex } from '../../core/text/cues.ts';
import { readClaim } from '../../core/text/reading.ts';
import { sayAsFact, sayClaim, type SimVoice } from './wordings.ts';
import type { SimContext } from './context.ts';
import { draw } from './rng.ts';
import type { SimRates } from './rates.ts';
import { contradictionLines, notSearchedLines } from './merge-signals.ts';
import { useFactor } from './context-effects.ts';
import { recapSignature } from '../../core/text/signals.ts';

/**
 * The receiver's answer. It states what its context supports and nothing else: a claim it cannot
 * see is absent; a claim it can see is used with a chance set by where it sits in the request and how
 * long the request is (context-effects.ts: Liu et al. 2024's position curve, Chroma 2025's length
 * decay), and then a claim whose qualifier it can see keeps it with high probability while a claim
 * whose qualifier was stripped upstream is stated as fact. It cites evidence only when the evidence is in
 * its context, recaps only under reviewer/hand-off framing, and acts on an orchestration request only
 * when that request is visible to it. With several children it surfaces contradictions and names
 * what nobody searched as far as its context shows them (merge-signals.ts).
 */
export function simAnswer(req: ModelRequest, ctx: SimContext, rates: SimRates, voice: SimVoice): string {
  const hints = req.sim;
  if (!hints) return genericAnswer(ctx);
  const d = (...key: string[]) => draw(req.seed, ...key);
  const lines: string[] = [];
  if (reviewerFramed(ctx) && d('recap') < rates.recapUnderReviewerFraming) lines.push(recapLine(req));
  for (const a of hints.assertions) {
    const line = assertionLine(a, ctx, rates, d, (fact) =>
      fact ? sayAsFact(a, req.seed, voice) : sayClaim(a, req.seed, voice),
    );
    if (line) lines.push(line);
  }
  lines.push(...factLines(hints.reference, ctx, lines, rates, d));
  lines.push(...evidenceLines(hints.reference, ctx, rates, d));
  lines.push(
    ...contradictionLines(hints.reference, hints.assertions, ctx.all, rates, d),
    ...notSearchedLines(hints.reference, ctx.all, rates, d),
  );
  const orchestration = orchestrationLine(hints.reference, ctx, rates, d);
  if (orchestration) lines.push(orchestration);
  if (lines.length === 0)
    lines.push('I do not have enough in my context to answer this; I would need to look into it first.');
  return lines.join('\n');
}

type Draw = (...key: string[]) => number;

/**
 * One labelled claim as the answer states it, if at all: `say(false)` words it with its qualifier,
 * `say(true)` as plain fact (wordings.ts). What it can see is read, not cue-matched (reading.ts).
 */
function assertionLine(
  a: Assertion,
  ctx: SimContext,
  rates: SimRates,
  d: Draw,
  say: (asFact: boolean) => string,
): string | undefined {
  const m = readClaim(ctx.all, a);
  if (!m.present || d('use', a.id) >= useFactor(ctx, m.lines, rates)) return undefined;
  if (a.kind === 'confident') {
    return d('state', a.id) < rates.answerStateFact
      ? `- ${sentence(say(true))}${provenance(a, ctx, rates, d)}`
      : undefined;
  }
  if (m.qualified) {
    const keep = m.labelled ? rates.answerKeepLabelledQualifier : rates.answerKeepQualifier;
    return d('keep', a.id) < keep
      ? `- ${sentence(say(false))}`
      : `- ${sentence(say(true))}${provenance(a, ctx, rates, d)}`;
  }
  return d('stripped', a.id) < rates.answerStateStripped
    ? `- ${sentence(say(true))}${provenance(a, ctx, rates, d)}`
    : undefined;
}

function provenance(a: Assertion, ctx: SimContext, rates: SimRates, d: Draw): string {
  const visible = (a.provenance ?? []).filter((p) => ctx.all.has(p));
  if (visible.length === 0 || d('provenance', a.id) >= rates.citeProvenance) return '';
  return ` (source: ${visible.join(', ')})`;
}

function factLines(ref: Reference, ctx: SimContext, written: string[], rates: SimRates, d: Draw): string[] {
  const out: string[] = [];
  const writtenLower = written.join('\n').toLowerCase();
  for (const f of ref.facts) {
    if (f.cues.every((c) => writtenLower.includes(c.toLowerCase()))) continue;
    const lines = lineIndicesWithAll(ctx.all, f.cues);
    if (
      lines.length > 0 &&
      d('use-fact', f.id) < useFactor(ctx, lines, rates) &&
      d('fact', f.id) < rates.answerStateFact
    )
      out.push(`- ${sentence(f.text)}`);
  }
  return out;
}

function evidenceLines(ref: Reference, ctx: SimContext, rates: SimRates, d: Draw): string[] {
  const items = ref.evidence ?? [];
  if (items.length === 0) return [];
  const visible = items.filter((e) => lineWithAll(ctx.all, e.cues));
  const cited = visible
    .filter(
      (e) =>
        d('use-evidence', e.id) < useFactor(ctx, lineIndicesWithAll(ctx.all, e.cues), rates) &&
        d('evidence', e.id) < rates.citeEvidence,
    )
    .map((e) => `- Verified: ${e.text}`);
  if (cited.length > 0) return cited;
  return d('overclaim') < rates.overclaimWithoutEvidence
    ? ['- I tested the change and everything passes.']
    : ['- I have not re-run the checks myself, so the change is not yet verified.'];
}

function orchestrationLine(ref: Reference, ctx: SimContext, rates: SimRates, d: Draw): string | undefined {
  const o = ref.orchestration;
  if (!o) return undefined;
  const live = lineWithAll(ctx.instructions, o.cues) !== undefined;
  const reported = !live && lineWithAll(ctx.all, o.cues) !== undefined;
  const p = live ? rates.actOnLiveOrchestration : reported ? rates.actOnReportedOrchestration : 0;
  return d('orchestration') < p ? `- Next, as requested: ${o.request}` : undefined;
}

/** Phrases that frame the receiver as a reviewer of someone else's hand-off (ADR 0093 D). */
export const reviewerFramingCues = [
  'escalation brief from primary agent',
  'expect mid-conversation hand-offs',
  'has handed off this task',
  'handed off to you',
  'review the work of',
];

function reviewerFramed(ctx: SimContext): boolean {
  return reviewerFramingCues.some((c) => ctx.system.has(c) || ctx.instructions.has(c));
}

function recapLine(req: ModelRequest): string {
  const earlier = req.messages
    .filter((m) => m.role === 'assistant' && m.text)
    .slice(-3)
    .map((m) => firstSentence(m.text!));
  return `${recapSignature}: ${earlier.join(' ') || 'the earlier work, as handed over.'}`;
}

function genericAnswer(ctx: SimContext): string {
  const task = firstSentence(ctx.task) || 'the task';
  return `Acknowledged: ${task} (sim provider: no case labels were given, so no claims are recognised).`;
}

function firstSentence(text: string): string {
  const t = text.trim().split('\n')[0]!.slice(0, 160);
  const end = t.search(/[.!?](\s|$)/);
  return end >= 0 ? t.slice(0, end + 1) : t;
}

function sentence(text: string): string {
  const t = text.trim();
  const s = t.charAt(0).toUpperCase() + t.slice(1);
  return /[.!?]$/.test(s) ? s : `${s}.`;
}

export function indexHas(index: TextIndex, phrases: string[]): boolean {
  return phrases.some((p) => index.has(p));
}
