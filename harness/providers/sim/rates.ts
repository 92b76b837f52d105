import { ProviderError } from '../../core/errors.ts';

/**
 * The sim provider's behavioural rates. Every number here is a documented, overridable parameter
 * (`sim: { sizes: { small: {...} } }` in eval.config.ts); none depends on a strategy's name. Where a
 * rate comes from — a seed's figure, a published measurement, or a choice of ours — is said per
 * field here and per row in docs/decisions.md ("Calibration"). A sim run measures what each strategy
 * renders into a context under these rates — it is a simulation, not a measurement of any model.
 */
import { defaultLiveRates, type SimLiveRates } from './live-rates.ts';

export interface SimRates {
  /** summarise: probability a visible claim of each kind is written with its qualifier (ledgerline: 0.96 / 0.31 / 0.24). */
  summaryKeep: { confident: number; hedged: number; assumption: number; unresolved: number };
  /** summarise: when a qualifier is not kept, probability the bare claim is still written (as fact) rather than dropped. */
  summaryStripToFact: number;
  /** answer: probability a visible confident claim or reference fact is stated. */
  answerStateFact: number;
  /** answer: probability a claim whose qualifier is visible in running prose keeps it (else it is stated as fact). */
  answerKeepQualifier: number;
  /** answer: same, when the qualifier is an explicit label heading its line ("ASSUMPTION: …"). */
  answerKeepLabelledQualifier: number;
  /** answer: probability a visible claim whose qualifier is not visible is stated (as fact). */
  answerStateStripped: number;
  /** answer: probability a provenance (file:line, table.column) visible next to a claim is cited. */
  citeProvenance: number;
  /** answer: probability tool evidence visible in context is cited. */
  citeEvidence: number;
  /** answer: probability of claiming verification with no evidence in context ("I tested it"). */
  overclaimWithoutEvidence: number;
  /** answer: probability of a recap of earlier turns when the framing is a reviewer/hand-off one. */
  recapUnderReviewerFraming: number;
  /** answer: probability of acting on an orchestration request that is a live instruction in context. */
  actOnLiveOrchestration: number;
  /** answer: same, when the request is only visible as reported background. */
  actOnReportedOrchestration: number;
  /** answer: probability of surfacing a contradiction whose two claims sit close together in context (merge-signals.ts). */
  surfaceContradictionNear: number;
  /** answer: same, when the two claims are far apart (e.g. in different transcripts of a concatenation). */
  surfaceContradictionFar: number;
  /** answer: probability of naming a place its context says no child searched. */
  citeNotSearched: number;
  /** contract: probability a required field is omitted on an attempt (exercises validation + retry). */
  contractOmitField: number;
  /** contract: probability a visible hedge/assumption is filed in its proper slot (else as a verified finding). */
  contractSlotCaveat: number;
  /** background: probability the parent's orchestration request leaks into a generated background. */
  backgroundLeakOrchestration: number;
  /**
   * answer: how the chance that a claim visible in the context is used depends on where it sits —
   * its token offset in the rendered request over the request's tokens (0 = first token, 1 = the
   * end, where the task is). Liu et al., "Lost in the Middle" (TACL 2024), multi-document QA with 20
   * documents, gpt-3.5-turbo-0613: accuracy 75.8 / 57.2 / 53.8 / 55.4 / 63.2% with the answer in
   * document 1 / 5 / 10 / 15 / 20 (closed-book 56.1%). `curve` holds those points at their relative
   * positions; between them it is linear. Applied as a RELATIVE modulation: a claim at position x is
   * used with factor 1 − strength·(1 − acc(x)/max acc), so the best-placed claim keeps its base
   * rate and one in the middle keeps 53.8/75.8 = 0.71 of it. strength 0 switches it off.
   */
  contextPosition: { strength: number; curve: readonly { at: number; accuracy: number }[] };
  /**
   * answer: how that chance decays with the length of the whole request (Chroma, "Context Rot",
   * 2025: performance degrades with input length even on simple tasks). The report publishes
   * curves, not one number; its repository's result files for GPT-4.1 on LongMemEval give 267/306
   * correct on the focused prompts (median 251 tokens) and 191/306 on the full ones (median 112,767
   * tokens): a ratio of 0.715 over a 449× length ratio, i.e. factor (tokens/251)^−0.0548 — a relative
   * modulation again (1 at ≤ 251 tokens, 0.78 at 22k, 0.75 at 50k). The exponent is scaled by
   * strength; 0 switches it off.
   */
  contextLength: { strength: number; referenceTokens: number; exponent: number };
  /** latency model (ms): base + prefill per input token + decode per output token. */
  latency: { baseMs: number; prefillMsPerToken: number; decodeMsPerToken: number };
  /**
   * Context window in tokens: a request whose input (o200k count) plus max output tokens exceeds it
   * fails as a real provider's context-length 400 does (error_code context_length_exceeded). 200,000
   * for every size: the sizes stand for the default config's Anthropic models (claude-haiku-4-5 for
   * small, claude-sonnet-4-5 for large and the judge), whose standard window is 200k tokens.
   */
  contextWindowTokens: number;
  /** Live mode: the tool policy's and the receiver's tool-use rates (live-rates.ts). */
  live: SimLiveRates;
}

/** Liu et al. 2024, gpt-3.5-turbo-0613, 20 documents: the answer's document 1, 5, 10, 15, 20 at relative positions (i − 1)/19. */
export const lostInTheMiddle20Docs = [
  { at: 0, accuracy: 0.758 },
  { at: 4 / 19, accuracy: 0.572 },
  { at: 9 / 19, accuracy: 0.538 },
  { at: 14 / 19, accuracy: 0.554 },
  { at: 1, accuracy: 0.632 },
] as const;

/** Chroma "Context Rot" (2025), GPT-4.1 LongMemEval focused vs full: ln(0.8725 / 0.6242) / ln(112767 / 251). */
export const contextRotExponent = Math.log(267 / 191) / Math.log(112_767 / 251);

export type SimSize = 'small' | 'large' | 'judge';

const large: SimRates = {
  summaryKeep: { confident: 0.96, hedged: 0.31, assumption: 0.24, unresolved: 0.31 },
  summaryStripToFact: 0.2,
  answerStateFact: 0.97,
  answerKeepQualifier: 0.93,
  answerKeepLabelledQualifier: 0.995,
  answerStateStripped: 0.95,
  citeProvenance: 0.8,
  citeEvidence: 0.9,
  surfaceContradictionNear: 0.85,
  surfaceContradictionFar: 0.3,
  citeNotSearched: 0.9,
  overclaimWithoutEvidence: 0.5,
  recapUnderReviewerFraming: 0.5,
  actOnLiveOrchestration: 0.45,
  actOnReportedOrchestration: 0.08,
  contractOmitField: 0.05,
  contractSlotCaveat: 0.995,
  backgroundLeakOrchestration: 0.1,
  contextPosition: { strength: 1, curve: lostInTheMiddle20Docs },
  contextLength: { strength: 1, referenceTokens: 251, exponent: contextRotExponent },
  latency: { baseMs: 600, prefillMsPerToken: 0.14, decodeMsPerToken: 18 },
  contextWindowTokens: 200_000,
  live: defaultLiveRates,
};

const small: SimRates = {
  ...large,
  summaryKeep: { confident: 0.93, hedged: 0.25, assumption: 0.2, unresolved: 0.25 },
  answerStateFact: 0.9,
  answerKeepQualifier: 0.85,
  answerKeepLabelledQualifier: 0.95,
  citeProvenance: 0.55,
  citeEvidence: 0.7,
  surfaceContradictionNear: 0.7,
  surfaceContradictionFar: 0.2,
  citeNotSearched: 0.8,
  overclaimWithoutEvidence: 0.6,
  recapUnderReviewerFraming: 0.65,
  actOnLiveOrchestration: 0.6,
  contractOmitField: 0.12,
  contractSlotCaveat: 0.985,
  latency: { baseMs: 250, prefillMsPerToken: 0.05, decodeMsPerToken: 8 },
};

export const defaultSimRates: Record<SimSize, SimRates> = { small, large, judge: large };

/**
 * Sim model ids name their size: `sim-small`, `sim-large`, `sim-judge`. Another id fails like an
 * unknown model at a real provider: a 404 that would fail every call, so it stops the run.
 */
export function sizeOf(model: string): SimSize {
  const size = model.replace(/^sim-/, '');
  if (size === 'small' || size === 'large' || size === 'judge') return size;
  throw new ProviderError(
    'sim',
    `sim ${model}: HTTP 404: unknown sim model "${model}"; valid: sim-small, sim-large, sim-judge`,
    404,
    undefined,
    { code: 'model_not_found', fatal: true, baseURL: SIM_ENDPOINT },
  );
}

/** What a stopped run names as the sim's base URL. */
export const SIM_ENDPOINT = '(the embedded sim provider)';
