import { hash } from 'node:crypto';
import type { ModelRequest, ModelResponse, Provider, ToolCall } from '../../core/index.ts';
import { canonicalJson } from '../../cache/canonical-json.ts';
import { countTokens, requestTokens } from '../../core/tokens.ts';
import { ProviderError } from '../../core/errors.ts';
import { readContext } from './context.ts';
import { simAnswer } from './answer.ts';
import { simSummarize } from './summarize.ts';
import { simContract } from './contract.ts';
import { simBackground } from './background.ts';
import { simJudge, defaultSimJudge, type SimJudgeOptions } from './judge.ts';
import { simClassify } from './classify.ts';
import { simAct } from './act.ts';
import { simReceiverTools } from './receiver-tools.ts';
import { defaultSimRates, sizeOf, type SimRates, type SimSize } from './rates.ts';
import type { SimLiveRates } from './live-rates.ts';
import { defaultSimVoice, type SimVoice } from './wordings.ts';

export interface SimOptions {
  /** Per-size overrides of the documented rates. */
  sizes?: Partial<Record<SimSize, Partial<Omit<SimRates, 'live'>> & { live?: Partial<SimLiveRates> }>>;
  judge?: Partial<SimJudgeOptions>;
  /**
   * Whether the sim words each labelled claim from its bank of wordings (wordings.ts) instead of the
   * case's recorded statement. A *set* behaviour, default true; false reproduces the sim that speaks
   * only in the cases' own words.
   */
  paraphrase?: boolean;
}

/** What the sim does for a call purpose: text, or a tool call (forced tool choice). */
export type SimBehaviour = (
  req: ModelRequest,
  rates: SimRates,
  judge: SimJudgeOptions,
  voice: SimVoice,
) => { text: string; toolCalls?: ToolCall[] };

/** One behaviour per call purpose; add a purpose here (explicit registry, no import side effects). */
const behaviours: Partial<Record<ModelRequest['purpose'], SimBehaviour>> = {
  answer: (req, rates, _judge, voice) =>
    simReceiverTools(req, rates) ?? { text: simAnswer(req, readContext(req), rates, voice) },
  summarize: (req, rates, _judge, voice) => ({ text: simSummarize(req, readContext(req), rates, voice) }),
  contract: (req, rates, _judge, voice) => ({
    text: '',
    toolCalls: [simContract(req, readContext(req), rates, voice)],
  }),
  background: (req, rates, _judge, voice) => ({ text: simBackground(req, readContext(req), rates, voice) }),
  judge: (req, _rates, judge) => ({ text: '', toolCalls: [simJudge(req, judge)] }),
  classify: (req, _rates, judge) => ({ text: '', toolCalls: [simClassify(req, judge)] }),
  act: (req, rates, _judge, voice) => simAct(req, rates.live, voice),
};

/**
 * The version of the sim's behaviour: **bump it with every change to what the sim answers** for a
 * given request (a behaviour file, a matcher it uses, a default rate). It is part of the response-cache
 * key of every sim call, so answers of an older sim are never served to a newer one.
 */
export const SIM_BEHAVIOUR_VERSION = 11;

/**
 * What besides the request decides a sim answer, as a response-cache scope: the behaviour version,
 * the resolved rates of the model's size, the judge options and the voice (paraphrase on or off).
 * Hashed once per size, not per call.
 */
export function simCacheScope(
  rates: SimRates,
  judge: SimJudgeOptions,
  version: number = SIM_BEHAVIOUR_VERSION,
  voice: SimVoice = defaultSimVoice,
): string {
  return `sim/v${version}/${hash('sha256', canonicalJson({ rates, judge, ...(voice.paraphrase ? {} : { voice }) }), 'hex').slice(0, 32)}`;
}

/**
 * The deterministic, seeded, offline provider (DESIGN §4). Same request + seed → same response.
 * Latency is modelled (base + prefill + decode per token), not slept. `windows: false` drops the
 * context windows (the dry run's stand-in sizes requests meant for providers with windows of their own).
 */
export function createSimProvider(
  options: SimOptions = {},
  { windows = true }: { windows?: boolean } = {},
): Provider {
  const rates = resolveRates(options.sizes);
  const judge = { ...defaultSimJudge, ...options.judge };
  const voice: SimVoice = { paraphrase: options.paraphrase ?? defaultSimVoice.paraphrase };
  if (typeof voice.paraphrase !== 'boolean')
    throw new TypeError(`sim.paraphrase: must be true or false, got ${JSON.stringify(options.paraphrase)}`);
  const scopes = new Map(
    (Object.keys(rates) as SimSize[]).map((size) => [
      size,
      simCacheScope(rates[size], judge, SIM_BEHAVIOUR_VERSION, voice),
    ]),
  );
  return {
    id: 'sim',
    // An unknown model gets no scope of its own: its call fails, and failures are never cached.
    cacheScope: (model) => scopes.get(model.replace(/^sim-/, '') as SimSize) ?? 'sim/unknown-model',
    async generate(req: ModelRequest): Promise<ModelResponse> {
      const r = rates[sizeOf(req.model)];
      const behaviour = behaviours[req.purpose];
      if (!behaviour) throw new Error(`sim provider: no behaviour for call purpose "${req.purpose}"`);
      const inputTokens = requestTokens(req);
      if (windows) checkWindow(req, inputTokens, r.contextWindowTokens);
      const out = behaviour(req, r, judge, voice);
      const outputTokens = Math.max(
        1,
        countTokens(out.text) +
          (out.toolCalls ?? []).reduce((n, c) => n + countTokens(JSON.stringify(c.input)), 0),
      );
      return {
        text: out.text,
        toolCalls: out.toolCalls ?? [],
        stopReason: out.toolCalls?.length ? 'tool_use' : 'end_turn',
        usage: { inputTokens, outputTokens, cacheReadTokens: 0, cacheWriteTokens: 0 },
        latencyMs: Math.round(
          r.latency.baseMs +
            r.latency.prefillMsPerToken * inputTokens +
            r.latency.decodeMsPerToken * outputTokens,
        ),
        model: req.model,
        cached: false,
        retries: 0,
        costUsd: 0,
      };
    },
  };
}

/** The request a real provider would refuse with a context-length 400 is refused the same way. */
function checkWindow(req: ModelRequest, inputTokens: number, window: number): void {
  if (inputTokens + req.maxTokens <= window) return;
  const n = (x: number) => x.toLocaleString('en-US');
  throw new ProviderError(
    'sim',
    `sim ${req.model}: HTTP 400 context length exceeded: ${n(inputTokens)} input + ${n(req.maxTokens)} max output tokens > ${n(window)} context window`,
    400,
    undefined,
    { code: 'context_length_exceeded' },
  );
}

function resolveRates(overrides: SimOptions['sizes'] = {}): Record<SimSize, SimRates> {
  const out = {} as Record<SimSize, SimRates>;
  for (const size of Object.keys(defaultSimRates) as SimSize[])
    out[size] = {
      ...defaultSimRates[size],
      ...overrides[size],
      live: { ...defaultSimRates[size].live, ...overrides[size]?.live },
    };
  return out;
}

export const simModels = ['sim-small', 'sim-large', 'sim-judge'] as const;
