import type { ModelRequestInput, ModelResponse, SurvivalMark } from '../../harness/core/index.ts';
import type { MockReply, Protocol, Responder } from './mock-llm-wire.ts';

/**
 * A scripted survival classifier for tests (issue 26): it reads the fenced text of a classify request
 * the way a model would be asked to — a claim is there when one of its hand-written wordings is, and
 * keeps its caveat when one of its hedge wordings is on the same line — and answers the forced
 * `classify_survival` call for every claim id the request's tool schema lists. Wordings are lower case
 * and written by hand per fixture, none of them required to be a case's cue strings. Every request it
 * reads is logged (section and claim ids), so a test can prove each labelled claim reached it.
 */
export interface ClaimWording {
  /** Any of these (lower case) on a line: the claim is in the text. */
  said: string[];
  /** Any of these on the same line: its hedge / assumption / open question is kept. Absent for confident claims. */
  hedge?: string[];
}
export type Wordings = Record<string, ClaimWording>;

export interface ReaderLog {
  section: string;
  ids: string[];
}

export function readMarks(
  text: string,
  ids: readonly string[],
  wordings: Wordings,
): Record<string, SurvivalMark> {
  const lines = text.toLowerCase().split('\n');
  const out: Record<string, SurvivalMark> = {};
  for (const id of ids) {
    const w = wordings[id];
    const at = w ? lines.filter((l) => w.said.some((p) => l.includes(p))) : [];
    if (at.length === 0) out[id] = 'absent';
    else if (!w!.hedge) out[id] = 'kept';
    else out[id] = at.some((l) => w!.hedge!.some((h) => l.includes(h))) ? 'kept' : 'overstated';
  }
  return out;
}

const fenced = (text: string) =>
  /<<<UNTRUSTED-([0-9a-f]+)>>>\n?([\s\S]*?)\n?<<<END-UNTRUSTED-\1>>>/.exec(text)?.[2];
const sectionOf = (text: string) => /^The text \((.*)\):$/m.exec(text)?.[1] ?? '?';

function answer(user: string, ids: string[], wordings: Wordings, log: ReaderLog[]) {
  log.push({ section: sectionOf(user), ids });
  const text = fenced(user) ?? '';
  const marks = readMarks(text, ids, wordings);
  const quote = (id: string) =>
    marks[id] === 'absent'
      ? ''
      : (text.split('\n').find((l) => wordings[id]!.said.some((p) => l.toLowerCase().includes(p))) ?? '');
  return { marks: ids.map((id) => ({ assertion_id: id, mark: marks[id], quote: quote(id) })) };
}

/** In process: a judge call that answers classify requests (and nothing else). */
export function scriptedClassifier(wordings: Wordings, log: ReaderLog[] = []) {
  return async (r: ModelRequestInput): Promise<ModelResponse> => {
    if (r.purpose !== 'classify') throw new Error(`scripted classifier: unexpected purpose ${r.purpose}`);
    const ids = (r.tools![0]!.inputSchema as any).properties.marks.items.properties.assertion_id.enum;
    const input = answer(r.messages[0]!.text!, ids, wordings, log);
    return {
      text: '',
      toolCalls: [{ id: 'c1', name: 'classify_survival', input }],
      stopReason: 'tool_use',
      usage: { inputTokens: 10, outputTokens: 10, cacheReadTokens: 0, cacheWriteTokens: 0 },
      latencyMs: 1,
      model: 'scripted',
      cached: false,
      retries: 0,
      costUsd: 0,
    };
  };
}

/** On the wire (loopback mock): answers a request that forces classify_survival, in either protocol. */
export function scriptedClassifierResponder(wordings: Wordings, log: ReaderLog[] = []): Responder {
  return (body, protocol: Protocol): MockReply | undefined => {
    const tool = (body.tools ?? []).find(
      (t: any) => (protocol === 'anthropic' ? t.name : t.function?.name) === 'classify_survival',
    );
    if (!tool) return undefined;
    const schema = protocol === 'anthropic' ? tool.input_schema : tool.function.parameters;
    const ids = schema.properties.marks.items.properties.assertion_id.enum;
    const first = body.messages.find((m: any) => m.role === 'user');
    const user =
      typeof first.content === 'string'
        ? first.content
        : first.content.map((b: any) => b.text ?? '').join('');
    return { toolCall: { name: 'classify_survival', input: answer(user, ids, wordings, log) } };
  };
}
