import type { AssertionKind, ResultRow, SurvivalMark } from '../../harness/core/index.ts';
import { normalDraw, seededRandom } from '../../reports/stats/random.ts';

/**
 * Synthetic result rows with a planted effect of known size, for checking the statistics. The sim
 * provider shares random draws across arms (common random numbers), so it cannot give independent
 * replications of "no difference"; these rows can. Score = centre + case effect + arm effect +
 * cell noise, rounded and clipped to 1–5 unless `continuous`.
 */
export interface SyntheticSpec {
  seed: string | number;
  cases: number;
  reps: number;
  arms: string[];
  /** @default arms[0] */
  baseline?: string;
  suite?: string;
  criteria?: string[];
  /** Planted shift per arm on the score scale. */
  effects?: Record<string, number>;
  /** @default 3.2 */
  centre?: number;
  /** SD of the case effect (shared by every arm and rep of a case). @default 0.8 */
  caseSd?: number;
  /** SD of the per-cell noise. @default 0.9 */
  noiseSd?: number;
  /** Keep scores continuous (no rounding or clipping) so the planted difference is exact. */
  continuous?: boolean;
  /** Override text fields of the detail (e.g. to plant HTML payloads). */
  text?: Partial<{
    seen: string;
    answer: string;
    system: string;
    rationale: string;
    evidence: string;
    error: string;
  }>;
}

const kinds: AssertionKind[] = ['confident', 'hedged', 'assumption'];

export function syntheticRows(spec: SyntheticSpec): ResultRow[] {
  const rand = seededRandom('synthetic', spec.seed);
  const criteria = spec.criteria ?? ['correctness'];
  const suite = spec.suite ?? 'synthetic';
  const baseline = spec.baseline ?? spec.arms[0]!;
  const caseEffect = Array.from({ length: spec.cases }, () => normalDraw(rand) * (spec.caseSd ?? 0.8));
  const rows: ResultRow[] = [];
  for (let c = 0; c < spec.cases; c++) {
    for (const arm of spec.arms) {
      for (let rep = 0; rep < spec.reps; rep++) {
        const scores: Record<string, number | null> = {};
        for (const k of criteria) {
          const x =
            (spec.centre ?? 3.2) +
            caseEffect[c]! +
            (spec.effects?.[arm] ?? 0) +
            normalDraw(rand) * (spec.noiseSd ?? 0.9);
          scores[k] = spec.continuous ? x : Math.min(5, Math.max(1, Math.round(x)));
        }
        rows.push(row(spec, suite, `case-${String(c).padStart(2, '0')}`, arm, rep, baseline, scores, rand));
      }
    }
  }
  return rows;
}

function row(
  spec: SyntheticSpec,
  suite: string,
  caseId: string,
  arm: string,
  rep: number,
  baseline: string,
  scores: Record<string, number | null>,
  rand: () => number,
): ResultRow {
  const marks = kinds.map((kind, i) => {
    const m = (p: number): SurvivalMark =>
      rand() < p ? 'kept' : kind !== 'confident' && rand() < 0.5 ? 'overstated' : 'absent';
    return { assertionId: `a${i + 1}`, kind, payload: m(0.8), answer: m(0.6) };
  });
  const rate = (stage: 'payload' | 'answer') =>
    Object.fromEntries(
      kinds.map((k) => [k, marks.filter((m) => m.kind === k && m[stage] === 'kept').length]),
    );
  const before = 20_000 + Math.round(rand() * 5000);
  const t = spec.text ?? {};
  return {
    run_id: `synthetic-${spec.seed}`,
    cell_id: `${suite}/${caseId}/${arm}/${rep}`,
    suite,
    case_id: caseId,
    arm,
    strategy: arm,
    params: {},
    rep,
    status: 'ok',
    error: t.error ?? null,
    error_code: t.error ? 'internal' : null,
    source_model: 'sim:sim-large',
    receiver_model: 'sim:sim-large',
    judge_model: 'sim:sim-judge',
    provider: 'sim',
    seed: typeof spec.seed === 'number' ? spec.seed : 0,
    harness_version: 'test',
    baseline_arm: baseline,
    handoff_tokens: 1000 + Math.round(rand() * 500),
    handoff_chars: 4000,
    receiver_window_tokens_before: before,
    receiver_window_tokens_after: before + 1500,
    source_output_tokens: 400,
    input_tokens: before + 1500,
    output_tokens: 300,
    cache_read_tokens: 0,
    latency_ms: 1500 + Math.round(rand() * 1000),
    cost_usd: 0,
    judge_cost_usd: 0,
    cached_calls: 0,
    model_calls: 2,
    markers_count: 0,
    tool_calls_visible: 3,
    overstated_count: marks.filter((m) => m.answer === 'overstated').length,
    judge_errors: 0,
    scores,
    survival: { payload: rate('payload'), answer: rate('answer') },
    checks: [],
    detail: {
      system: t.system ?? 'You are the parent agent.',
      seen: t.seen ?? `[user]\nWhat broke in ${caseId}?`,
      answer: t.answer ?? `Answer for ${caseId} under ${arm}.`,
      judge: Object.entries(scores).map(([criterion, score]) => ({
        criterion,
        score,
        samples: [score],
        rationale: t.rationale ?? `facts for ${criterion}`,
        evidence: [t.evidence ?? 'quoted evidence'],
      })),
      survival: marks,
    },
  };
}
