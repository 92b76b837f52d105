import type { ModelRequest, ModelResponse, Provider, ToolCall } from '../../harness/types.ts';

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
