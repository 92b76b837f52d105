/**
 * The public API: `import { defineConfig, defineStrategy, finishHandoff } from 'handoff-eval'`. One
 * import point for everything a user composes with — the reference strategies import nothing this
 * file does not export (test/core/public-api.test.ts). Kept light (no runner, no report renderers:
 * checkStrategy loads them on first use) because config files import it, sometimes compiled as CommonJS.
 * docs/writing-a-strategy.md walks through the building blocks.
 */

// Config, strategies, sweeps, the test kit
import type { Reporter } from './runner/reporters.ts';

export { defineConfig } from './config/define-config.ts';
export { resolveConfig } from './config/resolve-config.ts';
export { configDefaults } from './config/defaults.ts';
export {
  defineSource,
  type SourceSpec,
  type SourceCommandSpec,
  type SourceFunctionSpec,
  type SourceInput,
} from './config/sources.ts';
export { sweep, sweepArmName, type SweepGrid, type SweepOptions } from './config/sweep.ts';
export { frameworks, frameworkArms, type FrameworksOptions } from './config/frameworks.ts';
export {
  defineParams,
  defineStrategy,
  resolveParams,
  type ParamSpecs,
  type StrategyDefinition,
} from '../strategies/define.ts';
export { strategies, getStrategy, type StrategyName } from '../strategies/index.ts';
export {
  checkStrategy,
  type CheckOptions,
  type CheckReport,
  type CheckFailure,
  type InvariantName,
} from './kit/check-strategy.ts';
export { generateTranscript, buildTranscript, type TurnSpec } from './kit/generate.ts';

// Judges, checks, reporters and providers: the extension points beside strategies (docs/config.md)
export {
  defineCriterion,
  criteria,
  getCriterion,
  type Criterion,
  type ReferencePart,
  type CriterionRegistry,
} from '../judges/criteria/index.ts';
export type { LabelNeed } from '../judges/criteria/define.ts';
export { defineCheck, type Check, type CheckContext, type CheckVerdict } from '../judges/define-check.ts';
export { builtinChecks, runChecks } from '../judges/checks.ts';
export { defineProvider } from './config/define-config.ts';

/**
 * Typed identity for a reporter object (`reporters: ['md', defineReporter({...})]`); every hook is
 * optional, and `onReport` gets the report Summary typed. (Defined here, at the top layer, because the
 * config layer cannot name the Summary that reports/ defines.)
 */
export function defineReporter<const R extends Reporter>(reporter: R): R {
  return reporter;
}
export { providerFactories } from './providers/index.ts';
export type { Reporter, ReportContext, RunStartInfo, Progress } from './runner/reporters.ts';

// Assembling a handoff
export { finishHandoff, trackCalls, callsMadeThrough, type HandoffParts } from '../strategies/finish.ts';
export {
  receiverHistory,
  attachReturn,
  closePendingCall,
  replayable,
  briefLength,
  simHintsOf,
  visibleSourceCalls,
} from '../strategies/compose.ts';
export { framings, type FramingName } from '../strategies/framing.ts';
export { toChat } from './core/transcript/chat.ts';

// Rendering transcripts, narrating trails, retention
export {
  renderTranscript,
  renderTranscriptFenced,
  renderMessages,
  renderMessage,
  formatCall,
  formatArgs,
} from '../strategies/render.ts';
export {
  renderSession,
  narrateCall,
  segmentMessages,
  retainedCutMarker,
  manifestLine,
  type SessionRenderOptions,
  type RenderedSegment,
} from '../strategies/narrate.ts';
export {
  planTrails,
  trailBytes,
  callSummary,
  adr0093Retention,
  type TrailFate,
  type TrailPlan,
} from '../strategies/trails.ts';
export {
  trimHeadTail,
  planCut,
  middleMarker,
  type MiddlePolicy,
  type HeadTailOptions,
  type HeadTailResult,
} from '../strategies/head-tail.ts';
export {
  buildBrick,
  fencedBrick,
  brickFenceNote,
  legacyBrick,
  adr0093Brick,
  allMarkers,
  oneLine,
  resultMarker,
  turnsMarker,
  turnCutMarker,
  clearedResult,
  emptyResult,
  type Brick,
  type BrickOptions,
  type BrickSwitches,
} from '../strategies/brick.ts';
export { effectiveSnapshot, lastTurns, deepFreeze, type SpawnSnapshot } from '../strategies/spawn.ts';
export { receiverAgentOf, sessionShapeOf, ownershipOf } from './core/transcript/session-shape.ts';

// The research_result contract
export {
  researchResultTool,
  researchResultSpec,
  requiredFields,
  validateResearchResult,
  isResearchResult,
  type ResearchResult,
  type Finding,
  type Unresolved,
  type Confidence,
} from '../strategies/contract-schema.ts';
export {
  applyGuards,
  traceable,
  type GuardFlag,
  type GuardName,
  type Guarded,
} from '../strategies/contract-guards.ts';
export { mergeContracts, type MergedResearchResult } from '../strategies/contract-merge.ts';
export {
  renderContract,
  createSpanServer,
  fetchTranscriptSpanSpec,
  listMarker,
  type ContractRenderOptions,
  type ContractRendering,
} from '../strategies/contract-render.ts';
export { fillContract, contractRequest } from '../strategies/structured-contract.ts';
// The framework reference strategies' building blocks (strategies/frameworks/, docs/strategies.md).
export {
  answerPending,
  conversation as frameworkConversation,
  endedSessions,
  framingFor,
  freshCallId,
  functionStyle,
  lastMessageText,
  pendingCalls,
  pyJson,
  receiverName,
  sourceName,
  sourcesOf,
  spawnedBy,
} from '../strategies/frameworks/shared.ts';
export { sdkConversation, transferMessage } from '../strategies/frameworks/agents-sdk.ts';
export { asToolResults, sdkToolName } from '../strategies/frameworks/tool-return.ts';

// Transcripts, tokens, text
export {
  viewOf,
  computeView,
  allTrailItems,
  finalAssistantText,
  lastAssistantText,
  opensTurn,
} from './core/transcript/view.ts';
export { countTokens, messageTokens, messagesTokens, requestTokens } from './core/tokens.ts';
export { fence, neutraliseMarkers, type Fenced } from './core/text/fence.ts';

// Errors
export {
  HarnessError,
  InputError,
  ConfigError,
  CaseValidationError,
  UnknownNameError,
  SubagentContractError,
} from './core/errors.ts';

// Types
export type * from './core/types/transcript.ts';
export type * from './core/types/case.ts';
export type * from './core/types/handoff.ts';
export type * from './core/types/model-call.ts';
export type * from './core/types/result.ts';
export type {
  UserConfig,
  ResolvedConfig,
  ProviderName,
  ModelSpec,
  GateThresholds,
  SuiteSelection,
  SourceMode,
  ProviderSettings,
  ProviderFactory,
  ReporterEntry,
} from './config/types.ts';
