import type {
  Case,
  ChatMessage,
  CriterionScore,
  ModelRequestInput,
  ModelResponse,
} from '../harness/core/index.ts';
import { judgeRequest, submitScoresName } from './judge-request.ts';
import type { CriterionRegistry } from './criteria/index.ts';
import { quoteFound } from './quotes.ts';

export { judgeRequest, submitScoresTool, submitScoresName } from './judge-request.ts';

/**
 * Pointwise 1–5 per criterion with anchored rubrics, reference-guided, through a forced tool call.
 * k samples per cell, aggregated per criterion by the median. A sample whose output is malformed is
 * retried once, with the validation error fed back; a criterion still unscored after the retry is a
 * null sample. A criterion with no valid sample is `null` with `error: 'judge_error: …'` — never 0,
 * never dropped; the cell's row counts them in `judge_errors`.
 */
export type JudgeCall = (req: ModelRequestInput) => Promise<ModelResponse>;

export interface JudgeOptions {
  /** Samples per cell. @default 1 */
  samples?: number;
  /** Sampling temperature. @default 0 for one sample, 1 for several (k samples at temperature 0 would be near-copies). */
  temperature?: number;
  /** The config's own criteria, by id, beside the library's. @default {} */
  registry?: CriterionRegistry;
}

export interface JudgeOutcome {
  scores: CriterionScore[];
  /** Every judge response, retries included, in call order. */
  responses: ModelResponse[];
}

interface Entry {
  score: number;
  rationale: string;
  evidence: string[];
}

/** One response, read: the valid entries, and why each other requested criterion is unscored. */
export interface ParsedScores {
  entries: Map<string, Entry>;
  problems: Map<string, string>;
}

export async function judgeCriteria(
  c: Case,
  answer: string,
  criteria: readonly string[],
  opts: JudgeOptions | number,
  call: JudgeCall,
): Promise<JudgeOutcome> {
  const o = typeof opts === 'number' ? { samples: opts } : opts;
  const samples = Math.max(1, o.samples ?? 1);
  const request = judgeRequest(c, answer, criteria, {
    temperature: o.temperature ?? (samples > 1 ? 1 : 0),
    registry: o.registry,
  });
  const responses: ModelResponse[] = [];
  const runs: ParsedScores[] = [];
  for (let k = 0; k < samples; k++) runs.push(await judgeSample(request, criteria, call, responses));
  return { scores: criteria.map((id) => checkQuotes(aggregate(id, runs), answer)), responses };
}

/** One sample: a call, and if anything is malformed one retry that is told what was wrong. */
async function judgeSample(
  request: ModelRequestInput,
  criteria: readonly string[],
  call: JudgeCall,
  responses: ModelResponse[],
): Promise<ParsedScores> {
  const first = await call(request);
  responses.push(first);
  const a = parseScores(first, criteria);
  if (a.problems.size === 0) return a;
  const second = await call({ ...request, messages: [...request.messages, ...feedback(first, a)] });
  responses.push(second);
  const b = parseScores(second, criteria);
  // The retry's entry wins; an entry only the first attempt got right is kept rather than thrown away.
  const entries = new Map(
    criteria.flatMap((id) => {
      const e = b.entries.get(id) ?? a.entries.get(id);
      return e ? [[id, e] as const] : [];
    }),
  );
  const problems = new Map(
    criteria
      .filter((id) => !entries.has(id))
      .map((id) => [id, `after retry: ${b.problems.get(id) ?? 'unscored'}`] as const),
  );
  return { entries, problems };
}

/**
 * The malformed turn and what was wrong with it. The judge's own prose is not replayed (it may quote
 * the answer, which would put untrusted text outside the fence); the errors name fields, not values.
 */
function feedback(res: ModelResponse, parsed: ParsedScores): ChatMessage[] {
  const why = [...new Set(parsed.problems.values())].join('; ');
  const ask = `Your ${submitScoresName} output was invalid: ${why}. Call ${submitScoresName} again with one valid entry (integer score 1–5) for every criterion.`;
  const tool = res.toolCalls[0];
  if (!tool)
    return [
      { role: 'assistant', text: `(a reply without a ${submitScoresName} call)` },
      { role: 'user', text: ask },
    ];
  return [
    { role: 'assistant', toolCalls: res.toolCalls },
    {
      role: 'user',
      toolResults: res.toolCalls.map((t) => ({
        callId: t.id,
        content: t === tool ? ask : 'ignored',
        isError: true,
      })),
    },
  ];
}

/** Reads a judge response. Accepts the forced tool call, or (servers without tool forcing) a JSON object in the text. */
export function parseScores(res: ModelResponse, criteria: readonly string[]): ParsedScores {
  const entries = new Map<string, Entry>();
  const problems = new Map<string, string>();
  const failAll = (why: string) => {
    for (const id of criteria) problems.set(id, why);
    return { entries, problems };
  };
  const input = inputOf(res);
  if (input === undefined) return failAll(`no ${submitScoresName} call`);
  const scores = (input as { scores?: unknown } | null)?.scores;
  if (!Array.isArray(scores)) return failAll('scores is not an array');
  const found = new Map<string, Entry[]>();
  scores.forEach((raw, i) => {
    const s = raw as Record<string, unknown> | null;
    const id = s?.criterion;
    if (typeof id !== 'string' || !criteria.includes(id)) return;
    const score =
      typeof s!.score === 'string' && /^[1-5]$/.test(s!.score.trim()) ? Number(s!.score) : s!.score;
    if (typeof score !== 'number' || !Number.isInteger(score) || score < 1 || score > 5) {
      problems.set(id, `entry ${i} (${id}): score must be an integer from 1 to 5`);
      return;
    }
    const entry = {
      score,
      rationale: typeof s!.rationale === 'string' ? s!.rationale : '',
      evidence: Array.isArray(s!.evidence) ? s!.evidence.map(String) : [],
    };
    found.set(id, [...(found.get(id) ?? []), entry]);
  });
  for (const id of criteria) {
    const got = found.get(id) ?? [];
    if (new Set(got.map((e) => e.score)).size > 1)
      problems.set(id, `${id}: scored more than once, with different scores`);
    else if (got.length > 0) {
      entries.set(id, got[0]!);
      problems.delete(id);
    } else if (!problems.has(id)) problems.set(id, `${id}: missing`);
  }
  return { entries, problems };
}

function inputOf(res: ModelResponse): unknown {
  const tool = res.toolCalls.find((t) => t.name === submitScoresName);
  if (tool) return typeof tool.input === 'string' ? tryJson(tool.input) : tool.input;
  const m = /\{[\s\S]*\}/.exec(res.text ?? '');
  return m ? tryJson(m[0]) : undefined;
}

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function aggregate(id: string, runs: ParsedScores[]): CriterionScore {
  const samples = runs.map((r) => r.entries.get(id)?.score ?? null);
  const valid = samples.filter((s): s is number => s !== null);
  if (valid.length === 0) {
    const why = runs.map((r) => r.problems.get(id)).find((p) => p !== undefined) ?? 'no valid sample';
    return { criterion: id, score: null, samples, rationale: '', evidence: [], error: `judge_error: ${why}` };
  }
  const score = median(valid);
  // The rationale shown is that of the sample nearest the median, so it explains the reported score.
  const pick = runs
    .map((r) => r.entries.get(id))
    .filter((e): e is Entry => e !== undefined)
    .reduce((best, e) => (Math.abs(e.score - score) < Math.abs(best.score - score) ? e : best));
  return { criterion: id, score, samples, rationale: pick.rationale, evidence: pick.evidence };
}

/**
 * Evidence is meant to be verbatim quotes from the answer; a quote that is not in it (after folding
 * case, whitespace and surrounding quotes or ellipses) is kept but marked, so a reviewer sees it.
 */
export const notInAnswer = '(not in the answer) ';

function checkQuotes(s: CriterionScore, answer: string): CriterionScore {
  return { ...s, evidence: s.evidence.map((q) => (quoteFound(q, answer) ? q : `${notInAnswer}${q}`)) };
}

/** The median; with an even count, the mean of the middle two (so k = 2 can give x.5). */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) throw new RangeError('median of no values');
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}
