import type { ChatMessage, ModelRequest } from '../../types.ts';
import { indexText, type TextIndex } from '../../text/cues.ts';

/**
 * What the sim can read in a request: the whole context as text, and the parts whose role matters
 * (system framing; user-role instructions; the final user message, which is the task).
 */
export interface SimContext {
  all: TextIndex;
  system: TextIndex;
  /** Text of user-role messages (instructions addressed to this agent), the task included. */
  instructions: TextIndex;
  task: string;
}

export function readContext(req: ModelRequest): SimContext {
  const parts: string[] = [];
  const systemParts: string[] = req.system ? [req.system] : [];
  const userParts: string[] = [];
  if (req.system) parts.push(req.system);
  for (const m of req.messages) {
    parts.push(renderForSim(m));
    if (m.role === 'system' && m.text) systemParts.push(m.text);
    if (m.role === 'user' && m.text) userParts.push(m.text);
  }
  const last = [...req.messages].reverse().find((m) => m.role === 'user' && m.text);
  return {
    all: indexText(parts.join('\n')),
    system: indexText(systemParts.join('\n')),
    instructions: indexText(userParts.join('\n')),
    task: last?.text ?? '',
  };
}

function renderForSim(m: ChatMessage): string {
  const out: string[] = [];
  if (m.text) out.push(m.text);
  for (const c of m.toolCalls ?? [])
    out.push(`${c.name}(${typeof c.input === 'string' ? c.input : JSON.stringify(c.input)})`);
  for (const r of m.toolResults ?? []) out.push(r.content);
  return out.join('\n');
}
