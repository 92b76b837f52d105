import type { LivePrompts, LivePromptsInput } from './live-prompts.ts';
import type { ResolvedSource, SourceSpec } from './sources.ts';
import type { Arm, Check, Criterion, Direction, Provider, Reporter, Strategy } from '../core/index.ts';
import type { SimOptions } from '../providers/sim/index.ts';

/** Live mode: inline's research replayed as every arm's (`replay`) or run inside the parent's window (`prefix`). */
export type LiveInlineMode = 'replay' | 'prefix';

/**
 * Makes a provider from the resolved config (its settings are `config.providers[name]`): the built-in
 * ones (sim, anthropic, openai) and a user's own (`providers: { gateway: { create } }`) alike.
 */
export type ProviderFactory = (config: ResolvedConfig, name: string) => Provider | Promise<Provider>;

/** A built-in reporter by name (`progress`, or a report format: `md`, `csv`, `json`, `html`), or a reporter object. */
export type ReporterEntry = 'progress' | 'md' | 'csv' | 'json' | 'html' | (string & {}) | Reporter;

/** The providers handoff-eval ships (harness/providers/index.ts has a factory for each, and only these). */
export const builtinProviderNames = ['sim', 'anthropic', 'openai'] as const;
export type BuiltinProviderName = (typeof builtinProviderNames)[number];

/** A provider: the sim, anthropic, openai, or a name the config registers. */
export type ProviderName = 'sim' | 'anthropic' | 'openai' | (string & {});

/** 'recorded' replays each case's source transcript; 'live' re-runs the source agent with tools over the case's world (docs/live.md). */
export type SourceMode = 'recorded' | 'live';

/** A model alias: the model id to use under each provider. */
export type ModelSpec = Partial<Record<ProviderName, string>>;

/** Settings of one provider (`providers.<name>`): base URL, retries, timeout, concurrency, transport, batch, rate limits, or a factory of your own. */
export interface ProviderSettings {
  /** Base URL (OpenAI-compatible servers: vLLM, Ollama, llama.cpp, LM Studio). Env vars win when set. */
  baseURL?: string;
  /** SDK retries (the one retry layer). @default 4 */
  maxRetries?: number;
  /** Per-request timeout in ms. @default 120000 */
  timeoutMs?: number;
  /** Concurrent calls to this provider. @default 16 (sim: 64) */
  concurrency?: number;
  /** HTTP transport under the SDK: a lean keep-alive node:http agent, or the SDK's own global fetch. @default 'node' */
  transport?: 'node' | 'fetch';
  /** `run --batch`: poll interval, phase quiet time and per-batch limits (docs/scale.md). */
  batch?: BatchSettings;
  /**
   * Rate-limit aware pacing per model: 429s, retry-after and the vendors' rate-limit headers space the
   * attempts (docs/providers.md, "Rate limits"); 'off' leaves it to the SDK's retries alone. @default 'adaptive'
   */
  rateLimits?: 'adaptive' | 'off';
  /**
   * A provider of your own (an in-house gateway): its factory, under the name `provider` and
   * `models.<alias>.<name>` use. @default the built-in provider of that name
   */
  create?: ProviderFactory;
}

export interface Price {
  /** USD per million input tokens. */
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
}

/**
 * An arm defined in the config (`extraArms`, a `sweep`). Without `models` it takes the suite's
 * baseline arm's model aliases. Named like one of the suite's arms, it redefines that arm: `strategy`
 * and `models` default to the suite arm's, `params` merge over the suite arm's (docs/config.md,
 * "Changing a suite arm's settings").
 */
export interface ArmInput extends Omit<Arm, 'models' | 'strategy'> {
  /** Required for an added arm; a redefined suite arm keeps its own when omitted. */
  strategy?: string;
  models?: Arm['models'];
  /**
   * Add the arm only to suites of these directions (`frameworks()` sets it); unknown directions are
   * rejected when the config resolves. @default every suite
   */
  directions?: Direction[];
}

/**
 * A suite in the config's `suites`: its id, and optionally which arms, extra arms, cases, mode and tool
 * budget.
 */
export interface SuiteSelection {
  id: string;
  /**
   * Keep only these arms: names of the suite's arms, or arm definitions (a `sweep(...)`, an inline
   * arm), which are added to the suite and kept. @default every arm of the suite (and `extraArms`)
   */
  arms?: (string | ArmInput | readonly ArmInput[])[];
  /** Keep only these case ids. @default every case */
  cases?: string[];
  /** Arms added to this suite: inline definitions or `sweep(...)` results. @default [] */
  extraArms?: (ArmInput | readonly ArmInput[])[];
  /** This suite's source mode (an arm's own `mode` wins). @default the config's `mode` */
  mode?: SourceMode;
  /** This suite's live tool-call budget. @default the config's `sourceToolBudget` */
  sourceToolBudget?: number;
  /**
   * Live mode: this suite's source system prompt and reminder, and per arm (`arms.<name>`); over the
   * config's `livePrompts`. @default the config's
   */
  livePrompts?: LivePromptsInput;
  /**
   * The criteria this suite's cases are judged on (library ids or the config's `criteria`), replacing
   * the suite's own list. @default the suite's (and each case's) own `criteria`
   */
  criteria?: string[];
  /** The deterministic checks run on this suite (built-in names or the config's `checks`). @default every one */
  checks?: string[];
}

/** A suite selection once resolved: arm names to keep, the arms added (flat, each checked). */
export interface ResolvedSuiteSelection {
  id: string;
  arms?: string[];
  cases?: string[];
  extraArms?: ArmInput[];
  mode?: SourceMode;
  sourceToolBudget?: number;
  livePrompts?: LivePromptsInput;
  criteria?: string[];
  checks?: string[];
}

/**
 * The gate's thresholds (docs/ci.md): minimum means, the largest drop vs the baseline, token growth, error
 * rate, minimum cells, and per-suite or per-arm scopes.
 */
export interface GateThresholds {
  /** Minimum mean per criterion (1–5). @default {} */
  minMean?: Record<string, number>;
  /** Maximum drop of a criterion mean vs the baseline, counted only when the paired CI excludes zero. @default 0.25 */
  maxDrop?: number;
  /** Maximum growth of mean handoff tokens vs the baseline, in percent. @default 10 */
  maxTokenGrowthPct?: number;
  /** Maximum share of error rows. @default 0.02 */
  maxErrorRate?: number;
  /** Fewer paired cells than this cannot decide (exit 2). @default 6 */
  minCells?: number;
  /** Thresholds for one suite (and its arms), over the ones above. @default {} */
  suites?: Record<string, GateSuiteScope>;
  /** Thresholds for the arms of this name in any suite, over the suite's. @default {} */
  arms?: Record<string, GateLimits>;
}

/**
 * Thresholds for part of the gate; each field replaces the enclosing one, except `minMean`, which
 * replaces criterion by criterion (`null` removes that criterion's minimum).
 */
export interface GateLimits {
  minMean?: Record<string, number | null>;
  maxDrop?: number;
  maxTokenGrowthPct?: number;
  maxErrorRate?: number;
  minCells?: number;
}

/** Every global threshold set; the scopes as given (absent when none). */
export type ResolvedGateThresholds = Required<Omit<GateThresholds, 'suites' | 'arms'>> &
  Pick<GateThresholds, 'suites' | 'arms'>;

export interface GateSuiteScope extends GateLimits {
  /** Arms of this suite with no minimum mean (a low score is what they show); checked against the baseline as ever. */
  exempt?: string[];
  /** Thresholds for one arm of this suite: the most specific scope. */
  arms?: Record<string, GateLimits>;
}

/** eval.config.ts: every field optional; `resolveConfig` fills the rest (precedence: CLI flag > file > default). */
export interface UserConfig {
  /** Suites to run, by id or with a selection. @default every suite under `casesDir` */
  suites?: (string | SuiteSelection)[];
  /** Keep only arms with these names (across suites). @default all */
  arms?: string[];
  /** Repetitions per case × arm. @default 3 */
  reps?: number;
  /** Run seed (the sim's draws, bootstrap resamples, shard assignment). @default 1 */
  seed?: number;
  /** Provider for every role, or per role. @default 'sim' */
  provider?:
    | ProviderName
    | { default?: ProviderName; source?: ProviderName; receiver?: ProviderName; judge?: ProviderName };
  /** Model aliases → model id per provider. Arms name aliases; `judge` names the judge's alias. */
  models?: Record<string, ModelSpec>;
  judge?: {
    /** Model alias of the judge. @default 'judge' */
    model?: string;
    /** Samples per cell, aggregated by median. @default 1 */
    samples?: number;
    /** `false` skips the LLM criterion judge (scores stay empty; survival and checks still run). @default true */
    criteria?: boolean;
    /**
     * The survival classifier decides every labelled claim at every stage (the judge model; the sim's
     * reader under sim). 'off' lets the literal cue matcher decide instead, and every report then says
     * its survival figures are cue-based. 'auto' is the older name of 'on'. @default 'on'
     */
    classify?: 'auto' | 'on' | 'off';
  };
  /** Global cap on concurrent cells. @default 32 */
  concurrency?: number;
  /** The receiver's message budget in tokens. @default 200000 */
  budgetTokens?: number;
  /**
   * Source mode for every suite and arm that does not name its own: 'recorded' replays the case's source
   * transcript; 'live' re-runs the source agent in a tool loop over the case's world (docs/live.md).
   * @default 'recorded'
   */
  mode?: SourceMode;
  /**
   * Live mode: tool calls the source agent may make before it must report (twice the ledgerline seed's
   * median of 6.1, so the ceiling binds only on runs that go far past the seed's scale). @default 12
   */
  sourceToolBudget?: number;
  /**
   * Live mode, the inline arm: `'replay'` runs its research like every arm's (the research then
   * replayed as the parent's own history); `'prefix'` runs its research turns inside the parent's
   * window — each request carries the parent's history before the brief, so its tokens and latency
   * include that prefill (docs/live.md#inline-inside-the-parents-window). @default 'replay'
   */
  liveInline?: LiveInlineMode;
  /**
   * Live mode: the source loop's system prompt (`system`, `{budget}` replaced) and its "end with what
   * you could not determine" reminder (`reminder`: a sentence, or false for none), for every suite;
   * a suite selection's `livePrompts` (and its `arms.<name>`) wins. @default the built-in prompt
   */
  livePrompts?: LivePrompts;
  /** Response cache: `false` to disable, or its directory. @default '.handoff-cache' */
  cache?: boolean | { dir?: string };
  /** Where runs are written. @default 'runs' */
  outDir?: string;
  /** Where suites live. @default 'cases' */
  casesDir?: string;
  /** Sim provider rates (documented in harness/providers/sim/rates.ts). */
  sim?: SimOptions;
  providers?: Partial<Record<ProviderName, ProviderSettings>>;
  /** USD per million tokens, per model id; merged over the built-in table. */
  prices?: Record<string, Price>;
  gate?: GateThresholds;
  /**
   * Largest share of error rows (0–1) for which `run` still exits 0; above it `run` exits 3 and prints
   * the count and the top reasons (the run itself is complete). @default gate.maxErrorRate
   */
  maxErrorRate?: number;
  /**
   * The primary criterion per suite id, overriding the suite's own (suite.json `primaryCriterion`,
   * else its first criterion). Verdicts on the primary criterion are Holm-adjusted across the arms;
   * every other criterion is secondary, Holm across arms × criteria (docs/results.md#statistics).
   * Each key must be a suite under `casesDir` and each value one of that suite's criteria.
   * @default {} (every suite's own primary criterion)
   * @example { milk: 'verification_evidence' }
   */
  primaryCriterion?: Record<string, string>;
  /** Strategies defined inline (by name), in addition to the registered ones. */
  strategies?: Record<string, Strategy<any>>;
  /**
   * Criteria of your own (`defineCriterion`), beside the library's: judged on a suite that names them
   * (suite.json `criteria`, or a suite selection's `criteria`), shown in every report like built-in ones.
   * @default []
   */
  criteria?: Criterion[];
  /**
   * Deterministic checks of your own (`defineCheck`), run on every cell after the built-in ones (a
   * suite selection's `checks` narrows which run). @default []
   */
  checks?: Check[];
  /**
   * What `run` reports through, by name or as objects with optional hooks (vitest's reporters):
   * `'progress'` (the progress line; dropped by `--quiet`) and the report files `'md'`, `'csv'`,
   * `'json'`, `'html'`; a reporter object may write its own (`onReport`).
   * @default ['progress', 'md', 'csv', 'json', 'html']
   * @example ['progress', 'md', myReporter]
   */
  reporters?: ReporterEntry[];
  /**
   * Your own agents as the live source, by name (`run --mode live --source <name>`): a command run
   * once per live cell with `{world}`, `{brief}`, `{out}` in its argv, or `defineSource(fn)`
   * (docs/live.md#your-own-agent-as-the-source). @default {}
   */
  sources?: Record<string, SourceSpec>;
}

/** The config after defaults, flags and validation: what every command runs with. */
export interface ResolvedConfig {
  configFile: string | null;
  suites: ResolvedSuiteSelection[] | 'all';
  arms: string[] | 'all';
  /** Case ids to keep across the selected suites (`--case`). */
  cases: string[] | 'all';
  reps: number;
  seed: number;
  provider: { source: ProviderName; receiver: ProviderName; judge: ProviderName };
  models: Record<string, ModelSpec>;
  judge: { model: string; samples: number; criteria: boolean; classify: 'auto' | 'on' | 'off' };
  concurrency: number;
  budgetTokens: number;
  mode: SourceMode;
  /** True when --mode set it: it then wins over every suite's and arm's own mode. */
  modeForced: boolean;
  sourceToolBudget: number;
  /** Live mode: where inline's research turns run (`--live-inline`). */
  liveInline: LiveInlineMode;
  /** The config's own live prompts (suites' and arms' are in their selections). */
  livePrompts?: LivePrompts;
  cache: { enabled: boolean; dir: string };
  outDir: string;
  casesDir: string;
  sim: SimOptions;
  providers: Partial<Record<ProviderName, ProviderSettings>>;
  prices: Record<string, Price>;
  gate: ResolvedGateThresholds;
  maxErrorRate: number;
  primaryCriterion: Record<string, string>;
  strategies: Record<string, Strategy<any>>;
  /** The config's own criteria, by id. */
  criteria: Record<string, Criterion>;
  /** The config's own checks, run after the built-in ones. */
  checks: Check[];
  reporters: ReporterEntry[];
  quiet: boolean;
  shard: { index: number; count: number } | null;
  /** The config's sources, checked. */
  sources: Record<string, ResolvedSource>;
  /** `--source <name>`: live cells run that source instead of the harness's own tool loop. */
  source: string | null;
  /** `run --batch`: model calls go through the vendors' batch APIs at the batch price (docs/scale.md). */
  batch?: boolean;
  /** `run --keep-worlds`: live cells leave their world copies on disk (docs/live.md). */
  keepWorlds?: boolean;
}

/** What a batch run can tune per provider (`providers.<name>.batch` in eval.config.ts). */
export interface BatchSettings {
  /** Between two status reads of a batch. @default 30000 */
  pollMs?: number;
  /** A phase is complete (submit the queue) when no call was queued for this long. @default 500 */
  quietMs?: number;
  /** At most this many requests per batch (never above the vendor's limit). */
  maxRequests?: number;
  /** At most this many bytes per batch (never above the vendor's limit). */
  maxBytes?: number;
}
