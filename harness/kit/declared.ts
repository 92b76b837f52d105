import type { Strategy } from '../core/index.ts';
import type { CheckReport, InvariantName } from './types.ts';
import { declared, marksCuts, type Problem } from './invariants.ts';

// Declared invariants (Strategy.declares): the kit checks them like any other and files what it finds
// under `declared`, never under failures — and never reports them as passed.

/**
 * The problems of one handoff: each invariant it breaks counts the handoff once; a declared
 * invariant's problems go to `declared`, the rest are failures.
 */
export function record(
  r: CheckReport,
  strategy: Strategy<any>,
  params: Record<string, unknown>,
  input: string,
  problems: Problem[],
): void {
  const seen = new Set<InvariantName>();
  for (const p of problems) {
    const failure = { ...p, params, input };
    const reason = declaredReason(strategy, p.invariant, params);
    if (reason) {
      const d = (r.declared[p.invariant] ??= { reason, handoffs: 0, problems: 0 });
      d.problems++;
      d.first ??= failure;
      if (!seen.has(p.invariant)) d.handoffs++;
    } else {
      r.failures.push(failure);
      if (!seen.has(p.invariant)) r.failedHandoffs[p.invariant]++;
    }
    seen.add(p.invariant);
  }
}

/**
 * Why the strategy breaks an invariant on purpose, for these params: its `declares`, or — the older
 * form — `properties.marksCuts: false` for cuts-marked.
 */
export function declaredReason(
  s: Strategy<any>,
  invariant: InvariantName,
  params: Record<string, unknown>,
): string | undefined {
  const given = declared(
    (s.declares as Record<string, string | ((p: unknown) => string | undefined)> | undefined)?.[invariant],
    params,
  );
  if (typeof given === 'string' && given.trim()) return given;
  if (invariant === 'cuts-marked' && !marksCuts(s, params))
    return 'cuts silently on purpose (properties.marksCuts is false)';
  return undefined;
}
