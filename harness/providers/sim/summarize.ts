import type { Assertion, ModelRequest } from '../../core/index.ts';
import { countTokens } from '../../core/tokens.ts';
import { lineWithAll } from '../../core/text/cues.ts';
import { readClaim } from '../../core/text/reading.ts';
import { sayAsFact, sayClaim, type SimVoice } from './wordings.ts';
import type { SimContext } from './context.ts';
import { draw } from './rng.ts';
import type { SimRates } from './rates.ts';

const kindOrder = { confident: 0, hedged: 1, assumption: 2, unresolved: 3 } as const;

/**
 * Summarise under a token budget (`maxTokens`). It keeps the claims visible in its context, spending
 * the budget on confident ones first; a hedge or assumption keeps its qualifier with the documented
 * probability (ledgerline: 0.96 / 0.31 / 0.24), otherwise it is written as plain fact or dropped.
 * Facts and evidence lines it can see follow, while budget remains.
 */
export function simSummarize(req: ModelRequest, ctx: SimContext, rates: SimRates, voice: SimVoice): string {
  const hints = req.sim;
  if (!hints) return `Summary: ${ctx.task.slice(0, 200)}`;
  const d = (...key: string[]) => draw(req.seed, ...key);
  const budget = req.maxTokens;
  const lines: string[] = [];
  let used = 0;
  const add = (line: string) => {
    const cost = countTokens(line) + 1;
    if (used + cost > budget) return;
    lines.push(line);
    used += cost;
  };
  const visible = hints.assertions
    .map((a) => ({ a, m: readClaim(ctx.all, a) }))
    .filter(({ m }) => m.present)
    .sort((x, y) => kindOrder[x.a.kind] - kindOrder[y.a.kind]);
  for (const { a, m } of visible) {
    const line = summaryLine(a, m.qualified, rates, d, (fact) =>
      fact ? sayAsFact(a, req.seed, voice) : sayClaim(a, req.seed, voice),
    );
    if (line) add(line);
  }
  const text = () => lines.join('\n').toLowerCase();
  for (const f of hints.reference.facts) {
    if (
      !f.cues.every((c) => text().includes(c.toLowerCase())) &&
      lineWithAll(ctx.all, f.cues) &&
      d('fact', f.id) < rates.summaryKeep.confident
    )
      add(`- ${f.text}`);
  }
  for (const e of hints.reference.evidence ?? []) {
    if (lineWithAll(ctx.all, e.cues) && d('evidence', e.id) < rates.summaryKeep.confident) add(`- ${e.text}`);
  }
  return lines.length > 0 ? lines.join('\n') : 'Nothing conclusive was found.';
}

function summaryLine(
  a: Assertion,
  qualifiedInSource: boolean,
  rates: SimRates,
  d: (...k: string[]) => number,
  say: (asFact: boolean) => string,
): string | undefined {
  if (a.kind === 'confident')
    return d('keep', a.id) < rates.summaryKeep.confident ? `- ${say(true)}` : undefined;
  if (qualifiedInSource && d('keep', a.id) < rates.summaryKeep[a.kind]) return `- ${say(false)}`;
  return d('strip', a.id) < rates.summaryStripToFact ? `- ${say(true)}` : undefined;
}
