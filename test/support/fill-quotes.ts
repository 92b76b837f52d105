import type { ModelRequestInput, ModelResponse } from '../../harness/core/index.ts';

/** The first non-blank line of a classify request's fenced text (what a scripted classifier can quote). */
export function fencedLine(r: ModelRequestInput): string {
  const user = r.messages[0]?.text ?? '';
  const inside = /<<<UNTRUSTED-([0-9a-f]+)>>>\n?([\s\S]*?)\n?<<<END-UNTRUSTED-\1>>>/.exec(user)?.[2] ?? '';
  return inside.split('\n').find((l) => l.trim()) ?? '';
}

/**
 * A scripted classifier's reply with its evidence filled in: a kept or overstated mark with an empty
 * quote gets a line of the text it was asked about (judges read a mark whose quote is not in the text
 * as absent). Tests about the quote itself write their quotes and do not use this.
 */
export function fillQuotes(res: ModelResponse, r: ModelRequestInput): ModelResponse {
  const line = fencedLine(r);
  return {
    ...res,
    toolCalls: res.toolCalls.map((t) => {
      const marks = (t.input as { marks?: unknown } | undefined)?.marks;
      if (t.name !== 'classify_survival' || !Array.isArray(marks)) return t;
      const filled = marks.map((m: any) =>
        m && m.mark !== 'absent' && m.quote === '' ? { ...m, quote: line } : m,
      );
      return { ...t, input: { ...(t.input as object), marks: filled } };
    }),
  };
}
