import type { ChatMessage, ModelRequest, ToolCall } from '../../core/index.ts';

/**
 * What the acting sim can read in its own session (docs/live.md): the brief, the tools it was offered
 * (names, and the tables and documents their descriptions list), and every call it made with its
 * result. Nothing else: not the case's labels, not its reference. The policy (act.ts) and the lead
 * rules (act-leads.ts) see only this.
 */
export interface ActContext {
  brief: string;
  /** Told from its first turn that it must fill coverage.not_searched (a return contract's notice). */
  coverageNotice: boolean;
  tools: Set<string>;
  /** Table name → columns, from the query tool's description. */
  tables: Map<string, string[]>;
  docs: string[];
  history: Step[];
  /** The text the sim wrote alongside its calls (its own narration). */
  narration: string;
}

export interface Step {
  call: ToolCall;
  result: string;
  isError: boolean;
}

export function readActContext(req: ModelRequest): ActContext {
  // Inline run inside the parent's window (--live-inline prefix): its own session starts after it.
  const own = req.messages.slice(req.sim?.prefixMessages ?? 0);
  const firstAssistant = own.findIndex((m) => m.role === 'assistant');
  const leading = firstAssistant < 0 ? own : own.slice(0, firstAssistant);
  const brief = leading
    .filter((m) => m.role === 'user' && m.text)
    .map((m) => m.text!)
    .join('\n');
  const tools = new Set((req.tools ?? []).map((t) => t.name));
  const query = req.tools?.find((t) => t.name === 'query')?.description ?? '';
  const doc = req.tools?.find((t) => t.name === 'read_doc')?.description ?? '';
  return {
    brief,
    coverageNotice: /not_searched/.test(`${req.system ?? ''}\n${brief}`),
    tools,
    tables: parseTables(query),
    docs: /Documents: (.*)\.$/.exec(doc)?.[1]?.split(', ') ?? [],
    history: stepsOf(own),
    narration: own
      .filter((m) => m.role === 'assistant' && m.text)
      .map((m) => m.text!)
      .join('\n'),
  };
}

function parseTables(description: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const list = /Tables: (.*)\.$/.exec(description)?.[1] ?? '';
  for (const m of list.matchAll(/(\w+)\(([^)]*)\)/g)) out.set(m[1]!, m[2]!.split(', '));
  return out;
}

function stepsOf(messages: readonly ChatMessage[]): Step[] {
  const results = new Map<string, { content: string; isError: boolean }>();
  for (const m of messages)
    for (const r of m.toolResults ?? []) results.set(r.callId, { content: r.content, isError: !!r.isError });
  const out: Step[] = [];
  for (const m of messages)
    if (m.role === 'assistant')
      for (const c of m.toolCalls ?? []) {
        const r = results.get(c.id);
        out.push({ call: c, result: r?.content ?? '', isError: r?.isError ?? true });
      }
  return out;
}

/** A line of search output: `path:12:text` (a match) or `path-12-text` (context). */
export function searchLines(result: string): { path: string; line: number; text: string }[] {
  const out: { path: string; line: number; text: string }[] = [];
  for (const l of result.split('\n')) {
    const m = /^(\S+?\.\w+)[:-](\d+)[:-](.*)$/.exec(l);
    if (m) out.push({ path: m[1]!, line: Number(m[2]), text: m[3]! });
  }
  return out;
}

/** A numbered read (`cat -n`): its lines with their numbers. */
export function readLines(result: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  for (const l of result.split('\n')) {
    const m = /^\s*(\d+)\t(.*)$/.exec(l);
    if (m) out.push({ line: Number(m[1]), text: m[2]! });
  }
  return out;
}

/** Where each call looked, as the agent would cite it. */
export function locatorOf(call: ToolCall): string {
  const i = (call.input ?? {}) as Record<string, unknown>;
  if (call.name === 'search_code')
    return `search "${String(i.query)}"${i.path && i.path !== '.' ? ` in ${String(i.path)}` : ''}`;
  if (call.name === 'read_file') return String(i.path);
  if (call.name === 'query') return `query: ${String(i.sql)}`;
  if (call.name === 'read_doc') return `document ${String(i.name)}`;
  if (call.name === 'run_tests') return `tests${i.scope ? ` (${String(i.scope)})` : ''}`;
  if (call.name === 'list_files') return `the file list${i.path ? ` of ${String(i.path)}` : ''}`;
  if (call.name === 'write_file' || call.name === 'edit_file') return `${call.name} ${String(i.path)}`;
  return call.name;
}
