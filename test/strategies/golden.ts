import type { ChatMessage, Handoff, ModelRequest } from '../../harness/core/index.ts';
import { scriptedProvider } from './helpers.ts';
import { validRecord } from './contract-fixtures.ts';

/** The model the golden renderings run against: a valid contract record, else a reply naming its purpose. */
export const scripted = () =>
  scriptedProvider([
    (req) =>
      req.purpose === 'contract'
        ? { toolCalls: [{ id: 'rr1', name: 'research_result', input: validRecord() }] }
        : { text: `(the model's ${req.purpose} reply)` },
  ]);

/** A message as the golden rendering files show it: role, text, calls and results, one per line. */
export function message(m: ChatMessage): string {
  const lines = [`[${m.role}]`];
  if (m.text !== undefined) lines.push(m.text);
  for (const t of m.toolCalls ?? []) lines.push(`→ call ${t.id} ${t.name} ${JSON.stringify(t.input)}`);
  for (const r of m.toolResults ?? [])
    lines.push(`← result ${r.callId}${r.isError ? ' (error)' : ''}:`, r.content);
  return lines.join('\n');
}

/** A handoff, its stats and the requests its strategy sent, as one section of a golden rendering file. */
export function renderGolden(
  params: Record<string, unknown>,
  h: Handoff,
  requests: readonly ModelRequest[],
): string {
  const { calls, inputTokens, outputTokens, latencyMs, retries, costUsd, ...kept } = h.stats;
  const parts = [
    `=== params ${JSON.stringify(params)}`,
    '--- system',
    h.system,
    '--- messages',
    ...h.messages.map(message),
    '--- payload',
    h.payload,
    `--- tools: ${h.tools.map((t) => `${t.name} (${t.description})`).join('; ') || '(none)'}`,
    `--- artifacts: ${Object.keys(h.artifacts).sort().join(', ') || '(none)'}`,
    `--- stats ${JSON.stringify(kept)} calls ${calls}`,
  ];
  for (const r of requests)
    parts.push(
      `--- request ${r.purpose} (maxTokens ${r.maxTokens}${r.toolChoice ? `, tool choice ${JSON.stringify(r.toolChoice)}` : ''})`,
      ...(r.system ? ['[system]', r.system] : []),
      ...r.messages.map(message),
    );
  return parts.join('\n') + '\n';
}
