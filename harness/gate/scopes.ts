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

interface Names {
  arms: Set<string>;
  criteria: Set<string>;
}
type Known = Map<string, Names>;
type SuiteNames = readonly { suite: string; criteria: readonly string[]; arms: readonly { arm: string }[] }[];

/**
 * What the config's scopes name, against the run and the baseline. A suite or arm in neither is a
 * note — a subset run (`run --suite ledgerline`) gated with the project's config must not fail on the
 * scopes of the suites it left out; typos are caught where the names are known, when the config loads
 * (suite ids under casesDir) and by `validate` (arms). A name the baseline has and the run lacks
 * cannot evaluate, naming it (the run did not measure what the threshold guards). Within a suite the
 * run has, a criterion it does not score is a typo: cannot evaluate.
 */
export function scopeChecks(
  t: ResolvedGateThresholds,
  run: SuiteNames,
  baseline: Baseline,
): { checks: GateCheck[]; notes: string[] } {
  const inRun = knownNames(run);
  const inBase = knownNames(baseline.suites);
  const checks: GateCheck[] = [];
  const notes: string[] = [];
  /** Absent from the run: a note if the baseline lacks it too, else cannot evaluate. */
  const absent = (field: string, what: string, inBaseline: boolean) => {
    if (inBaseline)
      checks.push(configMistake(field, `${what} is in the baseline but not in the run: cannot evaluate`));
    else notes.push(`${field}: ${what} is in neither the run nor the baseline; not applied`);
  };
  for (const [id, scope] of Object.entries(t.suites ?? {})) {
    const s = inRun.get(id);
    const b = inBase.get(id);
    if (!s) {
      absent(`gate.suites.${id}`, `suite ${id}`, b !== undefined);
      continue;
    }
    const arms = [
      ...(scope.exempt ?? []).map((arm) => ({ arm, field: `gate.suites.${id}.exempt` })),
      ...Object.keys(scope.arms ?? {}).map((arm) => ({ arm, field: `gate.suites.${id}.arms.${arm}` })),
    ];
    for (const { arm, field } of arms)
      if (!s.arms.has(arm)) absent(field, `arm ${arm} of suite ${id}`, b?.arms.has(arm) ?? false);
    for (const c of minimums(scope.minMean))
      if (!s.criteria.has(c))
        checks.push(configMistake(`gate.suites.${id}.minMean.${c}`, `${id} does not score ${c}`));
  }
  for (const [arm, scope] of Object.entries(t.arms ?? {})) {
    const suites = [...inRun.values()].filter((s) => s.arms.has(arm));
    if (suites.length === 0) {
      absent(
        `gate.arms.${arm}`,
        `arm ${arm}`,
        [...inBase.values()].some((s) => s.arms.has(arm)),
      );
      continue;
    }
    for (const c of minimums(scope.minMean))
      if (!suites.some((s) => s.criteria.has(c)))
        checks.push(configMistake(`gate.arms.${arm}.minMean.${c}`, `no suite with arm ${arm} scores ${c}`));
  }
  return { checks, notes };
}

const minimums = (m: Record<string, number | null> | undefined) =>
  Object.entries(m ?? {})
    .filter(([, v]) => v !== null)
    .map(([c]) => c);

function knownNames(suites: SuiteNames): Known {
  const known: Known = new Map();
  for (const s of suites) {
    const entry = known.get(s.suite) ?? { arms: new Set<string>(), criteria: new Set<string>() };
    for (const a of s.arms) entry.arms.add(a.arm);
    for (const c of s.criteria) entry.criteria.add(c);
    known.set(s.suite, entry);
  }
  return known;
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
