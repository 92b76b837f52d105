import type { ChatMessage, ModelRequest } from '../../core/index.ts';
import { indexText, type TextIndex } from '../../core/text/cues.ts';
import { countTokens, messageTokens } from '../../core/tokens.ts';

/**
 * What the sim can read in a request: the whole context as text, and the parts whose role matters
 * (system framing; user-role instructions; the final user message, which is the task) — plus where
 * each part sits in tokens, so a claim's position in the rendered request can be read off
 * (harness/providers/sim/context-effects.ts).
 */
export interface SimContext {
  all: TextIndex;
  system: TextIndex;
  /** Text of user-role messages (instructions addressed to this agent), the task included. */
  instructions: TextIndex;
  task: string;
  /** Tokens of the rendered request (system and messages; o200k, the harness's count). */
  tokens: number;
  /** The token offset of a character position of `all`. */
  tokenAt: (pos: number) => number;
}

export function readContext(req: ModelRequest): SimContext {
  const parts: string[] = [];
  const partTokens: number[] = [];
  const systemParts: string[] = req.system ? [req.system] : [];
  const userParts: string[] = [];
  if (req.system) {
    parts.push(req.system);
    partTokens.push(countTokens(req.system) + 4);
  }
  for (const m of req.messages) {
    parts.push(renderForSim(m));
    partTokens.push(messageTokens(m));
    if (m.role === 'system' && m.text) systemParts.push(m.text);
    if (m.role === 'user' && m.text) userParts.push(m.text);
  }
  const last = [...req.messages].reverse().find((m) => m.role === 'user' && m.text);
  const map = tokenMap(parts, partTokens);
  return {
    all: indexText(parts.join('\n')),
    system: indexText(systemParts.join('\n')),
    instructions: indexText(userParts.join('\n')),
    task: last?.text ?? '',
    tokens: map.total,
    tokenAt: map.tokenAt,
  };
}

/**
 * Token offsets at part granularity: a part's first character sits at the tokens of the parts before
 * it; inside a part the offset is interpolated by characters (its tokens are spread evenly). Exact
 * where it matters — which message a claim is in, in a request of tens of thousands of tokens — and
 * it costs no tokenizer pass beyond the memoised per-message counts.
 */
function tokenMap(parts: string[], partTokens: number[]) {
  const charStart = new Float64Array(parts.length + 1);
  const tokStart = new Float64Array(parts.length + 1);
  for (let i = 0; i < parts.length; i++) {
    charStart[i + 1] = charStart[i]! + parts[i]!.length + 1;
    tokStart[i + 1] = tokStart[i]! + partTokens[i]!;
  }
  const total = tokStart[parts.length]!;
  const tokenAt = (pos: number): number => {
    let lo = 0;
    let hi = parts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (charStart[mid]! <= pos) lo = mid;
      else hi = mid - 1;
    }
    const len = Math.max(1, parts[lo]?.length ?? 1);
    const within = Math.min(1, Math.max(0, (pos - charStart[lo]!) / len));
    return tokStart[lo]! + within * (partTokens[lo] ?? 0);
  };
  return { total, tokenAt };
}

function renderForSim(m: ChatMessage): string {
  const out: string[] = [];
  if (m.text) out.push(m.text);
  for (const c of m.toolCalls ?? [])
    out.push(`${c.name}(${typeof c.input === 'string' ? c.input : JSON.stringify(c.input)})`);
  for (const r of m.toolResults ?? []) out.push(r.content);
  return out.join('\n');
}
