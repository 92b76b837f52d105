import type { ResultRow } from '../harness/types.ts';

/** Per suite × arm aggregates, computed once; every formatter renders this. */
export interface ArmSummary {
  suite: string;
  arm: string;
  strategy: string;
  baseline: boolean;
  cells: number;
  ok: number;
  errors: number;
  meanHandoffTokens: number | null;
  meanLatencyMs: number | null;
  scores: Record<string, { mean: number | null; n: number; unscored: number }>;
}

export interface Summary {
  runId: string;
  simulated: boolean;
  cells: number;
  errors: number;
  criteria: string[];
  arms: ArmSummary[];
}

export function summarize(rows: ResultRow[]): Summary {
  const groups = new Map<string, ResultRow[]>();
  for (const r of rows) {
    const key = `${r.suite}\u0000${r.arm}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = []));
    g.push(r);
  }
  const criteria = [...new Set(rows.flatMap((r) => Object.keys(r.scores)))].sort();
  const arms = [...groups.values()].map((g) => armSummary(g, criteria));
  return {
    runId: rows[0]?.run_id ?? '',
    simulated: rows.some((r) => r.provider === 'sim' || r.receiver_model.startsWith('sim:')),
    cells: rows.length,
    errors: rows.filter((r) => r.status === 'error').length,
    criteria,
    arms,
  };
}

function armSummary(g: ResultRow[], criteria: string[]): ArmSummary {
  const ok = g.filter((r) => r.status === 'ok');
  const scores: ArmSummary['scores'] = {};
  for (const c of criteria) {
    const vals = ok.map((r) => r.scores[c]).filter((v): v is number => typeof v === 'number');
    const present = ok.filter((r) => c in r.scores);
    if (present.length === 0) continue;
    scores[c] = { mean: mean(vals), n: vals.length, unscored: present.length - vals.length };
  }
  const first = g[0]!;
  return {
    suite: first.suite,
    arm: first.arm,
    strategy: first.strategy,
    baseline: first.arm === first.baseline_arm,
    cells: g.length,
    ok: ok.length,
    errors: g.length - ok.length,
    meanHandoffTokens: mean(ok.map((r) => r.handoff_tokens)),
    meanLatencyMs: mean(ok.map((r) => r.latency_ms)),
    scores,
  };
}

export function mean(xs: number[]): number | null {
  if (xs.length === 0) return null;
  let s = 0;
  for (const x of xs) s += x;
  return s / xs.length;
}
