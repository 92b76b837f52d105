import type { Draft, ToolResult } from '../core/index.ts';
import type { MessageDraft } from './builder.ts';
import { isRecord } from './source.ts';

/**
 * One `exec_command_end` event (codex-rs/protocol/src/protocol.rs, `ExecCommandEndEvent {call_id,
 * process_id?, exit_code, …}`): `call_id` is the `exec_command` call that STARTED the process;
 * `process_id` is the unified-exec session the model polls with `write_stdin {session_id}`.
 */
export interface ExecEnd {
  callId: string;
  processId?: string;
  exitCode: number;
}

/** The unified-exec output header (codex-rs/core unified_exec: "Process running with session ID N"). */
const RUNNING = /Process running with session ID (\d+)/;
const EXITED = /Process exited with code -?\d+/;

/**
 * Sets `isError` on the result that reports a failed exit. A command that outlives its yield time
 * (~1 s) returns "Process running with session ID N" from `exec_command`; its exit arrives in a later
 * `write_stdin {session_id: N}` result, so the exit code belongs there (issue 28 item 2). The header
 * text only LOCATES the result among that session's results; the failure itself is the event's
 * structured `exit_code`, never read from text.
 */
export function flagExecExits(messages: readonly MessageDraft[], ends: readonly ExecEnd[]): void {
  const order: string[] = [];
  const stdinSession = new Map<string, string>();
  const results = new Map<string, Draft<ToolResult>>();
  for (const m of messages) {
    for (const c of m.toolCalls ?? []) {
      order.push(c.id);
      const session = isRecord(c.input) ? c.input.session_id : undefined;
      if (c.name === 'write_stdin' && (typeof session === 'number' || typeof session === 'string'))
        stdinSession.set(c.id, String(session));
    }
    for (const r of m.toolResults ?? []) if (!results.has(r.callId)) results.set(r.callId, r);
  }
  for (const end of ends) {
    if (end.exitCode === 0) continue;
    const own = results.get(end.callId);
    const running = own === undefined || RUNNING.test(own.content);
    const session = end.processId ?? (own ? RUNNING.exec(own.content)?.[1] : undefined);
    let target = own;
    if (running && session !== undefined) {
      const polls = order
        .slice(order.indexOf(end.callId) + 1)
        .filter((id) => stdinSession.get(id) === session)
        .flatMap((id) => results.get(id) ?? []);
      target = polls.find((r) => EXITED.test(r.content)) ?? polls.at(-1) ?? own;
    }
    if (target) target.isError = true;
  }
}
