import type { ChatMessage } from '../../harness/core/index.ts';
import { defineStrategy } from '../define.ts';
import { finishHandoff } from '../compose.ts';
import { sdkConversation } from './agents-sdk.ts';
import { framingFor, pyJson } from './shared.ts';

/**
 * OpenAI Agents SDK handoff with `nest_handoff_history` (RunConfig, default False): the prior transcript
 * collapsed into ONE assistant message — "For context, here is the conversation so far between the
 * user and the previous agent:" then `<CONVERSATION HISTORY>`, one numbered line per item,
 * `</CONVERSATION HISTORY>`. A message whose content is a string without a line break prints as
 * `role: content`; any other item (a multi-line message, a function_call, a function_call_output)
 * prints as its JSON (Python `json.dumps`, `ensure_ascii=False`). Tool items are only summarised, never
 * forwarded. The whole conversation is the run's input history here (a stored session handed to the
 * run), so nothing is forwarded verbatim and the SDK's handoff call pair ends the list.
 *
 * Source: openai/openai-agents-python v0.22.0 (4df9ecfae1761ca6fea67cc5a20b383c1d492024),
 * src/agents/handoffs/history.py: `nest_handoff_history`, `_build_ordered_default_history`,
 * `_build_summary_message`, `_format_transcript_item` (legacy vs JSON), `_SUMMARY_ONLY_INPUT_TYPES`;
 * wrappers from `set_conversation_history_wrappers` are the `start`/`end` params. The JS SDK has no
 * nesting, so the check is against the Python tests' documented cases
 * (test/fixtures/frameworks/openai-agents-python/).
 */
export const agentsSdkNested = defineStrategy({
  name: 'agents-sdk-nested',
  description:
    'OpenAI Agents SDK nest_handoff_history: the transcript as one assistant message in a <CONVERSATION HISTORY> block.',
  seed: 'framework: openai/openai-agents-python v0.22.0 (4df9ecfa) src/agents/handoffs/history.py nest_handoff_history',
  deterministic: true,
  declares: {
    'gaps-marked':
      "the SDK's history block prints each tool item as JSON (line breaks escaped), so the kit does not find the result's text where the string shows it",
    'cuts-marked':
      'the SDK prints a multi-line message or a tool item as its JSON, so a result arrives whole but escaped (line breaks as \\n); the kit reads the escaped text as a result shown in part',
  },
  params: {
    start: {
      type: 'string',
      default: '<CONVERSATION HISTORY>',
      description: 'the opening wrapper (set_conversation_history_wrappers start; SDK default)',
    },
    end: {
      type: 'string',
      default: '</CONVERSATION HISTORY>',
      description: 'the closing wrapper (set_conversation_history_wrappers end; SDK default)',
    },
  },
  async prepare(ctx, params) {
    const { history, work, handoff } = sdkConversation(ctx);
    const text = nestedHistory([...history, ...work, ...handoff], params.start, params.end);
    const messages: ChatMessage[] = [{ role: 'assistant', text }];
    return finishHandoff(ctx, {
      system: framingFor(ctx),
      messages,
      payload: text,
      payloadMessages: messages,
      retained: work.length,
    });
  },
});

/** The SDK's input item (Responses API shape) for each part of a chat message, in order. */
export function inputItems(messages: readonly ChatMessage[]): Record<string, unknown>[] {
  const items: Record<string, unknown>[] = [];
  for (const m of messages) {
    for (const r of m.toolResults ?? [])
      items.push({ type: 'function_call_output', call_id: r.callId, output: r.content });
    if (m.text !== undefined) items.push({ role: m.role, content: m.text });
    for (const c of m.toolCalls ?? [])
      items.push({
        type: 'function_call',
        call_id: c.id,
        name: c.name,
        arguments: typeof c.input === 'string' ? c.input : JSON.stringify(c.input ?? {}),
      });
  }
  return items;
}

const PREAMBLE = 'For context, here is the conversation so far between the user and the previous agent:';

/** `_build_summary_message`: the preamble, the wrappers and one numbered line per item. */
export function nestedHistory(messages: readonly ChatMessage[], start: string, end: string): string {
  const items = inputItems(messages);
  const lines = items.length
    ? items.map((item, i) => `${i + 1}. ${formatItem(item)}`)
    : ['(no previous turns recorded)'];
  return [PREAMBLE, start, ...lines, end].join('\n');
}

/** `_format_transcript_item`: `role: content` for a one-line string message, else the item's JSON. */
export function formatItem(item: Record<string, unknown>): string {
  const role = item.role;
  const content = item.content;
  if (
    typeof role === 'string' &&
    (content == null || (typeof content === 'string' && !/[\n\r]/.test(content)))
  )
    return `${role}: ${content ?? ''}`;
  return pyJson(item);
}
