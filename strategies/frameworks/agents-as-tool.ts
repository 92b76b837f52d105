import { defineStrategy } from '../define.ts';
import { finishHandoff } from '../compose.ts';
import { endedSessions, framingFor, lastMessageText } from './shared.ts';
import { asToolResults, sdkToolName } from './tool-return.ts';

/**
 * OpenAI Agents SDK `agent.asTool()`: the sub-agent runs on its own and the calling agent gets one
 * string as the tool result — the text of the sub-agent's last model response (`getOutputText` of the
 * last raw response, else its final output, else ''). Nothing else of the sub-agent's run (its tool
 * calls, their results, earlier messages) reaches the caller. Several children: one result per call.
 *
 * Source: openai/openai-agents-js v0.14.3 (94a3edc3e5318fdbc4ceb045df4dad934ca4ab2b),
 * packages/agents-core/src/agent.ts `Agent.asTool` (no `customOutputExtractor`: the
 * `normalizedRawOutputText ?? finalOutputText ?? ''` branch) and src/utils/messages.ts
 * `getOutputText` (the JS release is the one checked; the Python SDK's `as_tool` is not followed
 * here). A recorded session's last model
 * response is its last assistant message: a session that stopped on a bare tool call returns '' as
 * the SDK does for an unfinished run.
 */
export const agentsAsTool = defineStrategy({
  name: 'agents-as-tool',
  description: "OpenAI Agents SDK agent.asTool(): the sub-agent's last output text as the tool result.",
  seed: 'framework: openai/openai-agents-js v0.14.3 (94a3edc3) packages/agents-core/src/agent.ts Agent.asTool, default output extraction',
  deterministic: true,
  params: {},
  async prepare(ctx) {
    const sources = endedSessions(ctx);
    const results = sources.map(lastMessageText);
    const messages = asToolResults(ctx, results, sdkToolName);
    return finishHandoff(ctx, {
      system: framingFor(ctx),
      messages,
      payload: results.join('\n\n'),
      retained: sources.length,
      dropped: sources.reduce((n, s) => n + s.messages.length, 0) - sources.length,
    });
  },
});
