import type { Case, Handoff } from '../harness/types.ts';
import { judgeCriteria, type JudgeCall } from './criterion-judge.ts';
import { overstatedCount, survival, survivalRates } from './survival.ts';
import { runChecks } from './checks.ts';

/** Every judge of one cell: criterion scores, survival at both stages, deterministic checks → row fields + detail. */
export async function judgeCell(c: Case, h: Handoff, answer: string, call: JudgeCall, judgeConfig: { samples: number }) {
  const judge = await judgeCriteria(c, answer, c.criteria, judgeConfig.samples, call);
  const surv = survival(c.assertions, h.payload, answer);
  const checks = runChecks(c, h, answer);
  const scores: Record<string, number | null> = {};
  for (const s of judge.scores) scores[s.criterion] = s.score;
  return {
    fields: {
      scores,
      judge_errors: judge.scores.filter((s) => s.score === null).length,
      survival: { payload: survivalRates(surv, 'payload'), answer: survivalRates(surv, 'answer') },
      overstated_count: overstatedCount(surv),
      checks,
      markers_count: h.stats.markers.length,
      tool_calls_visible: h.stats.toolCallsVisible,
      handoff_tokens: h.stats.tokens,
      handoff_chars: h.stats.chars,
    },
    detail: { judge: judge.scores, survival: surv },
  };
}

