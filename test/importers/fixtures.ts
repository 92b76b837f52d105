/** Small builders for synthetic Claude Code lines: one content block per line, as Claude Code writes them. */
let uuid = 0;
const next = (): string => `u${++uuid}`;

export const session = 'sess-1';

export function assistant(
  messageId: string,
  block: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    type: 'assistant',
    uuid: next(),
    sessionId: session,
    message: { id: messageId, role: 'assistant', model: 'claude-test', content: [block] },
    ...extra,
  };
}

export function user(content: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { type: 'user', uuid: next(), sessionId: session, message: { role: 'user', content }, ...extra };
}

export const text = (t: string) => ({ type: 'text', text: t });
export const use = (id: string, name = 'Bash', input: Record<string, unknown> = { command: 'ls' }) => ({
  type: 'tool_use',
  id,
  name,
  input,
});
export const result = (id: string, content: unknown = `out of ${id}`, isError = false) => ({
  type: 'tool_result',
  tool_use_id: id,
  content,
  ...(isError ? { is_error: true } : {}),
});
