import type { MockReply, Protocol, Responder } from './mock-llm-wire.ts';

/**
 * A scripted source agent for the loopback mock (live mode): a request that offers the world's tools
 * (search_code) is a turn of the source's tool loop; its reply is the script's step for that round
 * (the number of assistant messages already in the request), then a final report. Any other request
 * falls through to the mock's default reply (undefined).
 */
export function scriptedAgent(
  script: MockReply[],
  finalText = 'Final report: m_0007 pins 2023-10 (merchant_config.api_version).',
): Responder {
  return (body, protocol) => {
    if (!offersWorldTools(body, protocol)) return undefined;
    const round = body.messages.filter((m: any) => m.role === 'assistant').length;
    const none = protocol === 'anthropic' ? body.tool_choice?.type === 'none' : body.tool_choice === 'none';
    return !none && round < script.length ? script[round] : { text: finalText };
  };
}

export function offersWorldTools(body: any, protocol: Protocol): boolean {
  return (body.tools ?? []).some(
    (t: any) => (protocol === 'anthropic' ? t.name : t.function?.name) === 'search_code',
  );
}

/** The tool results a request carries, in order, as each wire format holds them. */
export function toolResultsIn(
  body: any,
  protocol: Protocol,
): { id: string; content: string; isError: boolean }[] {
  const out: { id: string; content: string; isError: boolean }[] = [];
  for (const m of body.messages ?? []) {
    if (protocol === 'openai' && m.role === 'tool')
      out.push({
        id: m.tool_call_id,
        content: m.content,
        isError: String(m.content).startsWith('(tool error)'),
      });
    if (protocol === 'anthropic' && Array.isArray(m.content))
      for (const b of m.content)
        if (b.type === 'tool_result')
          out.push({
            id: b.tool_use_id,
            content: typeof b.content === 'string' ? b.content : JSON.stringify(b.content),
            isError: b.is_error === true,
          });
  }
  return out;
}
