import { defineStrategy } from '../define.ts';
import { finishHandoff } from '../compose.ts';
import { framingFor, sourcesOf } from './shared.ts';

/**
 * Google ADK `LlmAgent(include_contents='none')`: the agent's model request carries no contents at
 * all — no user messages, no tool results, nothing of the session — only its instruction (here: the
 * task the harness appends). What the other agent did reaches it only if its instruction says so.
 *
 * Source: google/adk-python v1.4.2 (8677d5c8dce985a4070a03917da37ff2f6e5391e),
 * src/google/adk/flows/llm_flows/contents.py `_ContentLlmRequestProcessor.run_async` (`if
 * agent.include_contents != 'none': llm_request.contents = _get_contents(...)`, so 'none' leaves the
 * request's contents empty) and src/google/adk/agents/llm_agent.py `include_contents` ("When set to
 * 'none', the model request will not include any contents, such as user messages, tool results,
 * etc."). Later ADK releases keep the current turn under 'none'; v1.4.2 is the release followed.
 */
export const adkNoContents = defineStrategy({
  name: 'adk-no-contents',
  description:
    "Google ADK include_contents='none': the agent's request carries no contents, only its instruction.",
  seed: "framework: google/adk-python v1.4.2 (8677d5c8) src/google/adk/flows/llm_flows/contents.py _ContentLlmRequestProcessor.run_async, include_contents='none'",
  deterministic: true,
  params: {},
  async prepare(ctx) {
    return finishHandoff(ctx, {
      system: framingFor(ctx),
      messages: [],
      payload: '',
      retained: 0,
      dropped: sourcesOf(ctx).reduce((n, s) => n + s.messages.length, 0),
    });
  },
});
