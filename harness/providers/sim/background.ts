import type { Assertion, ModelRequest } from '../../core/index.ts';
import { countTokens } from '../../core/tokens.ts';
import { lineWithAll } from '../../core/text/cues.ts';
import { readClaim } from '../../core/text/reading.ts';
import { sayAsFact, sayClaim, type SimVoice } from './wordings.ts';
import type { SimContext } from './context.ts';
import { draw } from './rng.ts';
import type { SimRates } from './rates.ts';

/**
 * Task-focused background for a spawned child (purpose `background`). The request's last user message
 * names the child's task; the sim keeps, within `maxTokens`, the claims, facts and evidence visible in
 * its context that bear on it — sharing a content word with that request (identifiers split, digit
 * tokens such as "v3" kept, plural and tense endings ignored) — confident ones first. A
 * background is a summary, so a caveat keeps its qualifier with the same documented rates as a summary
 * (`summaryKeep`), else the bare claim is written or dropped (`summaryStripToFact`). With probability
 * `backgroundLeakOrchestration` the parent's orchestration request — when visible — slips into the
 * background, the leak the seed warns of ("generated background transfers relevant evidence without
 * replaying its original instructions").
 */
export function simBackground(req: ModelRequest, ctx: SimContext, rates: SimRates, voice: SimVoice): string {
  const hints = req.sim;
  if (!hints) return 'Background: (no case labels were given, so no claims are recognised).';
  const d = (...key: string[]) => draw(req.seed, ...key);
  const focus = contentWords(ctx.task);
  const lines: string[] = [];
  let used = 0;
  const add = (line: string) => {
    const cost = countTokens(line) + 1;
    if (used + cost <= req.maxTokens) {
      lines.push(line);
      used += cost;
    }
  };
  const visible = hints.assertions
    .map((a) => ({ a, m: readClaim(ctx.all, a) }))
    .filter(({ a, m }) => m.present && bearsOn(a.claim, focus))
    .sort((x, y) => Number(x.a.kind !== 'confident') - Number(y.a.kind !== 'confident'));
  for (const { a, m } of visible) {
    const line = backgroundLine(a, m.qualified, rates, d, (fact) =>
      fact ? sayAsFact(a, req.seed, voice) : sayClaim(a, req.seed, voice),
    );
    if (line) add(line);
  }
  const written = () => lines.join('\n').toLowerCase();
  for (const f of hints.reference.facts) {
    if (
      bearsOn(f.text, focus) &&
      !f.cues.every((c) => written().includes(c.toLowerCase())) &&
      lineWithAll(ctx.all, f.cues)
    )
      add(`- ${f.text}`);
  }
  for (const e of hints.reference.evidence ?? [])
    if (bearsOn(e.text, focus) && lineWithAll(ctx.all, e.cues)) add(`- ${e.text}`);
  const o = hints.reference.orchestration;
  if (o && lineWithAll(ctx.all, o.cues) && d('leak-orchestration') < rates.backgroundLeakOrchestration)
    add(`- The parent is also working on: ${o.request}`);
  return lines.length ? lines.join('\n') : 'Nothing in the parent session bears directly on this task.';
}

function backgroundLine(
  a: Assertion,
  qualified: boolean,
  rates: SimRates,
  d: (...k: string[]) => number,
  say: (asFact: boolean) => string,
): string | undefined {
  if (a.kind === 'confident') return `- ${say(true)}`;
  if (qualified && d('keep', a.id) < rates.summaryKeep[a.kind]) return `- ${say(false)}`;
  return d('strip', a.id) < rates.summaryStripToFact ? `- ${say(true)}` : undefined;
}

const stopwords = new Set(
  'about above after again against also because been before being below between both could does doing down during each every from further have having here into itself just more most other over same should some such than that their them then there these they this those through under until very were what when where which while with would your task agent child parent background write words facts evidence conversation tokens under instructions anyone separately receives assignment caveat stated where came bear bears given'.split(
    ' ',
  ),
);

/**
 * Content words, as a reader would match them: identifiers split at `_ . / -`, words of 4+ letters or
 * any token with a digit ("v3", "3ds", "2023"), crude plural/tense endings stripped, stopwords dropped.
 */
function contentWords(text: string): Set<string> {
  const out = new Set<string>();
  for (const raw of text.toLowerCase().split(/[^a-z0-9]+/)) {
    if (!(raw.length >= 4 || (raw.length >= 2 && /\d/.test(raw))) || stopwords.has(raw)) continue;
    out.add(raw.replace(/(?<=.{3})(?:ing|ed|es|s)$/, ''));
  }
  return out;
}

function bearsOn(text: string, focus: Set<string>): boolean {
  for (const w of contentWords(text)) if (focus.has(w)) return true;
  return false;
}
