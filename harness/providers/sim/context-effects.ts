import type { SimContext } from './context.ts';
import type { SimRates } from './rates.ts';

/**
 * The two context effects on the receiver's answer (rates.ts: contextPosition, contextLength), as
 * relative factors on the chance that a claim it can see is used. Both read only the rendered
 * request — where the claim's line sits in tokens, how many tokens there are — never who rendered it.
 */

/** acc(x)/max acc on the published curve, linear between its points, pulled toward 1 by (1 − strength). */
export function positionFactor(relative: number, p: SimRates['contextPosition']): number {
  if (p.strength === 0 || p.curve.length === 0) return 1;
  const x = Math.min(1, Math.max(0, relative));
  const max = Math.max(...p.curve.map((c) => c.accuracy));
  let acc = p.curve[p.curve.length - 1]!.accuracy;
  for (let i = 1; i < p.curve.length; i++) {
    const a = p.curve[i - 1]!;
    const b = p.curve[i]!;
    if (x <= b.at) {
      acc =
        b.at === a.at ? b.accuracy : a.accuracy + ((x - a.at) / (b.at - a.at)) * (b.accuracy - a.accuracy);
      break;
    }
  }
  return 1 - p.strength * (1 - acc / max);
}

/** (tokens / reference)^(−exponent · strength) past the reference length, 1 below it. */
export function lengthFactor(tokens: number, l: SimRates['contextLength']): number {
  if (l.strength === 0 || tokens <= l.referenceTokens) return 1;
  return Math.pow(tokens / l.referenceTokens, -l.exponent * l.strength);
}

/**
 * The factor for a claim found on the given lines of `ctx.all`: its best-placed occurrence (a reader
 * who notices it anywhere has it), times the request's length factor.
 */
export function useFactor(ctx: SimContext, lines: readonly number[], rates: SimRates): number {
  if (lines.length === 0) return 0;
  const starts = ctx.all.lineStarts();
  let best = 0;
  for (const i of lines) {
    const rel = ctx.tokens > 0 ? ctx.tokenAt(starts[i] ?? 0) / ctx.tokens : 0;
    best = Math.max(best, positionFactor(rel, rates.contextPosition));
  }
  return best * lengthFactor(ctx.tokens, rates.contextLength);
}
