import type { AgentRole, Message, ToolCall, Transcript } from '../../harness/core/index.ts';

/** One tool call and the result it got, for building a transcript. */
export interface CallSpec {
  name: string;
  input: unknown;
  result: string;
  isError?: boolean;
}

/**
 * Builds a normalised transcript the way an agent session unfolds: user text, assistant text with
 * tool calls, the results in the next user message. Call ids are deterministic (`<prefix>_<n>`).
 */
export class SessionBuilder {
  readonly messages: Message[] = [];
  private n = 0;
  constructor(
    readonly agent: string,
    readonly role: AgentRole,
    readonly idPrefix: string,
    readonly model?: string,
  ) {}

  user(text: string, agent?: string): this {
    this.messages.push({ role: 'user', text, ...(agent ? { agent } : {}) });
    return this;
  }

  say(text: string): this {
    this.messages.push({ role: 'assistant', agent: this.agent, text });
    return this;
  }

  /** An assistant message making one or more calls (parallel when several), then their results. */
  act(text: string | undefined, ...calls: CallSpec[]): ToolCall[] {
    const made: ToolCall[] = calls.map((c) => ({ id: this.nextId(), name: c.name, input: c.input }));
    this.messages.push({ role: 'assistant', agent: this.agent, ...(text ? { text } : {}), toolCalls: made });
    this.messages.push({
      role: 'user',
      toolResults: calls.map((c, i) => ({
        callId: made[i]!.id,
        content: c.result,
        ...(c.isError ? { isError: true } : {}),
      })),
    });
    return made;
  }

  /** An assistant message whose calls stay pending (a spawn waiting for its child). */
  pending(text: string | undefined, ...calls: Omit<CallSpec, 'result'>[]): ToolCall[] {
    const made: ToolCall[] = calls.map((c) => ({ id: this.nextId(), name: c.name, input: c.input }));
    this.messages.push({ role: 'assistant', agent: this.agent, ...(text ? { text } : {}), toolCalls: made });
    return made;
  }

  /** A compaction summary standing in for turns that were compacted away. */
  compacted(text: string): this {
    this.messages.push({ role: 'user', text, compacted: true });
    return this;
  }

  nextId(): string {
    this.n++;
    return `${this.idPrefix}_${String(this.n).padStart(2, '0')}`;
  }

  build(id?: string, meta?: Record<string, unknown>): Transcript {
    return {
      ...(id ? { id } : {}),
      agents: { [this.agent]: { role: this.role, ...(this.model ? { model: this.model } : {}) } },
      messages: this.messages,
      ...(meta ? { meta } : {}),
    };
  }
}
