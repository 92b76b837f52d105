import type { GateLimits, ResolvedGateThresholds } from '../config/types.ts';
import type { GateCheck, Baseline } from './types.ts';
import { ConfigError } from '../core/errors.ts';

/** The thresholds that apply to one suite × arm, and the config scopes they came from. */
export interface ArmLimits {
  minMean: Record<string, number>;
  maxDrop: number;
  maxTokenGrowthPct: number;
  maxErrorRate: number;
  minCells: number;
  /** Set when the arm is exempt from minMean: the config field that says so. */
  exempt: string | null;
}

/**
 * Most specific wins: the global thresholds < `suites.<suite>` < `arms.<arm>` < `suites.<suite>.arms.<arm>`
 * (an arm is a smaller unit than a suite). Each field replaces the one below it; `minMean` replaces
 * criterion by criterion, and null removes that criterion's minimum. An arm in its suite's `exempt`
 * list has no minimum at all.
 */
export function limitsFor(t: ResolvedGateThresholds, suite: string, arm: string): ArmLimits {
  const out: ArmLimits = {
    minMean: { ...t.minMean },
    maxDrop: t.maxDrop,
    maxTokenGrowthPct: t.maxTokenGrowthPct,
    maxErrorRate: t.maxErrorRate,
    minCells: t.minCells,
    exempt: null,
  };
  const s = t.suites?.[suite];
  for (const layer of [s, t.arms?.[arm], s?.arms?.[arm]]) if (layer) apply(out, layer);
  if (s?.exempt?.includes(arm)) {
    out.minMean = {};
    out.exempt = `gate.suites.${suite}.exempt`;
  }
  return out;
}

function apply(out: ArmLimits, l: GateLimits): void {
  for (const [criterion, min] of Object.entries(l.minMean ?? {}))
    if (min === null) delete out.minMean[criterion];
    else out.minMean[criterion] = min;
  if (l.maxDrop !== undefined) out.maxDrop = l.maxDrop;
  if (l.maxTokenGrowthPct !== undefined) out.maxTokenGrowthPct = l.maxTokenGrowthPct;
  if (l.maxErrorRate !== undefined) out.maxErrorRate = l.maxErrorRate;
  if (l.minCells !== undefined) out.minCells = l.minCells;
}

interface Known {
  suites: Map<string, { arms: Set<string>; criteria: Set<string> }>;
}

/**
 * A scope that names a suite, an arm or a criterion neither the run nor the baseline has is a config
 * mistake — a typo would otherwise gate nothing — so it cannot evaluate (exit 2), like a global
 * minimum no suite scores.
 */
export function scopeChecks(
  t: ResolvedGateThresholds,
  run: readonly { suite: string; criteria: string[]; arms: readonly { arm: string }[] }[],
  baseline: Baseline,
): GateCheck[] {
  const known = knownNames(run, baseline);
  const out: GateCheck[] = [];
  const unknown = (field: string, reason: string) => out.push(configMistake(field, reason));
  for (const [id, scope] of Object.entries(t.suites ?? {})) {
    const s = known.suites.get(id);
    if (!s) {
      unknown(`gate.suites.${id}`, `no suite ${id} in the run or the baseline`);
      continue;
    }
    for (const arm of [...(scope.exempt ?? [])])
      if (!s.arms.has(arm)) unknown(`gate.suites.${id}.exempt`, `no arm ${arm} in suite ${id}`);
    for (const arm of Object.keys(scope.arms ?? {}))
      if (!s.arms.has(arm)) unknown(`gate.suites.${id}.arms.${arm}`, `no arm ${arm} in suite ${id}`);
    for (const c of minimums(scope.minMean))
      if (!s.criteria.has(c)) unknown(`gate.suites.${id}.minMean.${c}`, `${id} does not score ${c}`);
  }
  for (const [arm, scope] of Object.entries(t.arms ?? {})) {
    const suites = [...known.suites.values()].filter((s) => s.arms.has(arm));
    if (suites.length === 0)
      unknown(`gate.arms.${arm}`, `no arm ${arm} in any suite of the run or the baseline`);
    for (const c of minimums(scope.minMean))
      if (suites.length > 0 && !suites.some((s) => s.criteria.has(c)))
        unknown(`gate.arms.${arm}.minMean.${c}`, `no suite with arm ${arm} scores ${c}`);
  }
  return out;
}

const minimums = (m: Record<string, number | null> | undefined) =>
  Object.entries(m ?? {})
    .filter(([, v]) => v !== null)
    .map(([c]) => c);

function knownNames(
  run: readonly { suite: string; criteria: string[]; arms: readonly { arm: string }[] }[],
  baseline: Baseline,
): Known {
  const suites: Known['suites'] = new Map();
  for (const s of [...run, ...baseline.suites]) {
    const entry = suites.get(s.suite) ?? { arms: new Set<string>(), criteria: new Set<string>() };
    for (const a of s.arms) entry.arms.add(a.arm);
    for (const c of s.criteria) entry.criteria.add(c);
    suites.set(s.suite, entry);
  }
  return { suites };
}

function configMistake(field: string, reason: string): GateCheck {
  return {
    suite: '–',
    arm: '–',
    kind: 'scope',
    criterion: null,
    baseline: null,
    current: null,
    delta: null,
    ci: null,
    limit: null,
    verdict: 'cannot evaluate',
    reason: `${field}: ${reason}`,
  };
}

/**
 * `validate`: the suites and arms a scoped threshold names must exist among the suites on disk (a
 * config error naming the field), so a typo fails before any run rather than at the gate.
 */
export function checkScopeNames(
  t: ResolvedGateThresholds,
  suites: readonly { id: string; arms: readonly { name: string }[] }[],
  file: string,
): void {
  const ids = suites.map((s) => s.id);
  const armsOf = (id: string) => suites.find((s) => s.id === id)?.arms.map((a) => a.name) ?? [];
  const fail = (field: string, detail: string) => {
    throw new ConfigError(file, field, detail);
  };
  for (const [id, scope] of Object.entries(t.suites ?? {})) {
    if (!ids.includes(id)) fail(`gate.suites.${id}`, `no suite "${id}"; valid: ${ids.join(', ')}`);
    const arms = armsOf(id);
    for (const arm of [...(scope.exempt ?? []), ...Object.keys(scope.arms ?? {})])
      if (!arms.includes(arm))
        fail(
          `gate.suites.${id}.${scope.exempt?.includes(arm) ? 'exempt' : `arms.${arm}`}`,
          `no arm "${arm}" in suite ${id}; valid: ${arms.join(', ')}`,
        );
  }
  const all = [...new Set(ids.flatMap(armsOf))];
  for (const arm of Object.keys(t.arms ?? {}))
    if (!all.includes(arm))
      fail(`gate.arms.${arm}`, `no arm "${arm}" in any suite; valid: ${all.join(', ')}`);
}
