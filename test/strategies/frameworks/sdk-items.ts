import type { ChatMessage } from '../../../harness/core/index.ts';

// Both sides of a framework comparison brought to one neutral shape, item by item: a message (role,
// text), a tool call (id, name, arguments) or a tool result (call id, output).

export type Item =
  | { kind: 'message'; role: string; text: string }
  | { kind: 'call'; id: string; name: string; args: unknown }
  | { kind: 'result'; id: string; output: string };

/** Our chat messages as items, in the order a Responses-API input carries them. */
export function itemsOfChat(messages: readonly ChatMessage[]): Item[] {
  const out: Item[] = [];
  for (const m of messages) {
    for (const r of m.toolResults ?? []) out.push({ kind: 'result', id: r.callId, output: r.content });
    if (m.text !== undefined) out.push({ kind: 'message', role: m.role, text: m.text });
    for (const c of m.toolCalls ?? [])
      out.push({ kind: 'call', id: c.id, name: c.name, args: c.input ?? {} });
  }
  return out;
}

/** Our chat messages as Agents SDK input items (what a stored session handed to `run()` looks like). */
export function sdkInput(messages: readonly ChatMessage[]): any[] {
  return itemsOfChat(messages).map((it) => {
    if (it.kind === 'message')
      return it.role === 'assistant'
        ? {
            type: 'message',
            role: 'assistant',
            status: 'completed',
            content: [{ type: 'output_text', text: it.text }],
          }
        : { type: 'message', role: it.role, content: it.text };
    if (it.kind === 'call')
      return {
        type: 'function_call',
        callId: it.id,
        name: it.name,
        status: 'completed',
        arguments: JSON.stringify(it.args),
      };
    return {
      type: 'function_call_result',
      callId: it.id,
      name: nameOf(messages, it.id),
      status: 'completed',
      output: { type: 'text', text: it.output },
    };
  });
}

function nameOf(messages: readonly ChatMessage[], id: string): string {
  for (const m of messages) for (const c of m.toolCalls ?? []) if (c.id === id) return c.name;
  return 'unknown';
}

/** Agents SDK items (a model request's input) as neutral items. */
export function itemsOfSdk(input: readonly any[]): Item[] {
  return input.map((x): Item => {
    if (x.type === 'function_call')
      return { kind: 'call', id: x.callId, name: x.name, args: JSON.parse(x.arguments || '{}') };
    if (x.type === 'function_call_result')
      return {
        kind: 'result',
        id: x.callId,
        output: typeof x.output === 'string' ? x.output : x.output.text,
      };
    const text =
      typeof x.content === 'string'
        ? x.content
        : x.content.map((c: { text?: string }) => c.text ?? '').join('');
    return { kind: 'message', role: x.role, text };
  });
}
