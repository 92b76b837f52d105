import type {
  Case,
  Handoff,
  HandoffStats,
  ModelRequest,
  ModelResponse,
  Provider,
  ToolCall,
} from '../../harness/core/index.ts';

/** A provider response carrying the given tool calls (or text). */
export function response(toolCalls: ToolCall[], text = ''): ModelResponse {
  return {
    text,
    toolCalls,
    stopReason: toolCalls.length ? 'tool_use' : 'end_turn',
    usage: { inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 },
    latencyMs: 1,
    model: 'scripted',
    cached: false,
    retries: 0,
    costUsd: 0,
  };
}

export function submitScores(
  entries: Record<string, number | string | null>,
  rationale = 'because',
): ToolCall {
  return {
    id: 'j1',
    name: 'submit_scores',
    input: {
      scores: Object.entries(entries).map(([criterion, score]) => ({
        criterion,
        score,
        rationale: `${rationale} ${criterion}`,
        evidence: [],
      })),
    },
  };
}

/** A provider at the boundary: answers each request with the next scripted reply, recording what it was asked. */
export function scriptedProvider(
  id: string,
  replies: ((req: ModelRequest) => ModelResponse)[],
): Provider & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    id,
    requests,
    async generate(req) {
      requests.push(req);
      const next = replies.shift();
      if (!next)
        throw new Error(`scripted provider: no reply left for request #${requests.length} (${req.purpose})`);
      return next(req);
    },
  };
}

/**
 * The same case as an escalation session pinned from its first turn: its one agent is the receiver
 * (role escalation) and no brief opens it — the shape the transcript must show for owner framing.
 */
export function ownedVariant(c: Case): Case {
  const agent = Object.keys(c.source.agents)[0]!;
  return {
    ...c,
    direction: 'escalation',
    receiverAgent: agent,
    sessionShape: 'owned',
    source: {
      ...c.source,
      agents: { [agent]: { ...c.source.agents[agent]!, role: 'escalation' } },
      messages: c.source.messages.map((m) => (m.role === 'user' ? { ...m, agent: undefined } : m)),
    },
  };
}

/** The case as a hand-off (its source's agent is a primary that worked before the receiver). */
export function handedOffVariant(c: Case): Case {
  const o = ownedVariant(c);
  const agent = Object.keys(o.source.agents)[0]!;
  return {
    ...o,
    sessionShape: 'handed-off',
    receiverAgent: 'escalation',
    source: { ...o.source, agents: { [agent]: { role: 'primary' } } },
  };
}

/** A handoff whose payload is one user message, with every stat zero unless given. */
export function payloadHandoff(payload: string, stats: Partial<HandoffStats> = {}, system = 'sys'): Handoff {
  return {
    system,
    messages: [{ role: 'user', text: payload }],
    tools: [],
    artifacts: {},
    payload,
    stats: {
      chars: 0,
      tokens: 0,
      markers: [],
      retained: 0,
      dropped: 0,
      manifest: 0,
      toolCallsVisible: 0,
      calls: 0,
      inputTokens: 0,
      outputTokens: 0,
      latencyMs: 0,
      retries: 0,
      costUsd: 0,
      ...stats,
    },
  };
}
