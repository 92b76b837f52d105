import type { Strategy } from '../harness/core/index.ts';
import { UnknownNameError } from '../harness/core/errors.ts';
import { inline } from './inline.ts';
import { fullTranscript } from './full-transcript.ts';
import { finalMessage } from './final-message.ts';
import { brickOnly } from './brick-only.ts';
import { summary } from './summary.ts';
import { structuredContract } from './structured-contract.ts';
import { parityNarration } from './parity-narration.ts';
import { spawnIsolated } from './spawn-isolated.ts';
import { spawnAll } from './spawn-all.ts';
import { spawnRecent } from './spawn-recent.ts';
import { spawnSummary } from './spawn-summary.ts';
import { agentsSdkFull } from './frameworks/agents-sdk-full.ts';
import { agentsSdkNested } from './frameworks/agents-sdk-nested.ts';
import { agentsSdkRemoveTools } from './frameworks/agents-sdk-remove-tools.ts';
import { agentsAsTool } from './frameworks/agents-as-tool.ts';
import { langgraphFullHistory, langgraphLastMessage } from './frameworks/langgraph.ts';
import { adkNoContents } from './frameworks/adk-no-contents.ts';
import { ag2CarryoverLast, ag2CarryoverReflection } from './frameworks/ag2-carryover.ts';
import { crewaiTaskContext } from './frameworks/crewai-task-context.ts';
import { claudeCodeTask } from './frameworks/claude-code-task.ts';
import { observationMasking } from './frameworks/observation-masking.ts';

/** Every registered strategy, by name. Config may add inline strategy objects on top. */
export const strategies = {
  inline,
  'full-transcript': fullTranscript,
  'final-message': finalMessage,
  summary,
  'structured-contract': structuredContract,
  'brick-only': brickOnly,
  'parity-narration': parityNarration,
  'spawn-isolated': spawnIsolated,
  'spawn-all': spawnAll,
  'spawn-recent': spawnRecent,
  'spawn-summary': spawnSummary,
  // What popular agent frameworks hand over (strategies/frameworks/, docs/strategies.md).
  'agents-sdk-full': agentsSdkFull,
  'agents-sdk-nested': agentsSdkNested,
  'agents-sdk-remove-tools': agentsSdkRemoveTools,
  'agents-as-tool': agentsAsTool,
  'langgraph-full-history': langgraphFullHistory,
  'langgraph-last-message': langgraphLastMessage,
  'adk-no-contents': adkNoContents,
  'ag2-carryover-last': ag2CarryoverLast,
  'ag2-carryover-reflection': ag2CarryoverReflection,
  'crewai-task-context': crewaiTaskContext,
  'claude-code-task': claudeCodeTask,
  'observation-masking': observationMasking,
} satisfies Record<string, Strategy<any>>;

/** The names of the registered reference strategies. */
export type StrategyName = keyof typeof strategies;

/**
 * The strategy called `name`: a config's own strategy (`extra`) or a registered one; throws an
 * UnknownNameError listing the known names (`where` names the config field).
 */
export function getStrategy(
  name: string,
  extra: Record<string, Strategy<any>> = {},
  where?: string,
): Strategy<any> {
  // Looked up per cell: no merged copy of the registry unless the name is unknown.
  const s = Object.hasOwn(extra, name)
    ? extra[name]
    : Object.hasOwn(strategies, name)
      ? (strategies as Record<string, Strategy<any>>)[name]
      : undefined;
  if (!s) throw new UnknownNameError('strategy', name, Object.keys({ ...strategies, ...extra }), where);
  return s;
}
