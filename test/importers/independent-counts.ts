import { readFileSync } from 'node:fs';
import { strFromU8, unzipSync } from 'fflate';

/**
 * Counts read straight from the raw JSON of each new format, written from the format's own
 * documentation (codex-rs/protocol's RolloutItem/ResponseItem, the OpenAI Responses API item list,
 * gemini-cli's chatRecordingTypes.ts, inspect_ai's ChatMessage and .eval layout, OpenHands events) —
 * a few lines of plain code each, sharing nothing with the importers.
 *
 * The normalised shape they count toward: one user message per user turn, one assistant message per
 * run of assistant-side items (text and calls of one response), one result message per run of
 * outputs; system prompts are not messages.
 */
export interface Counts {
  messages: number;
  toolCalls: number;
  results: number;
  errors: number;
  agents: number;
}

const lines = (file: string): any[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l));

/** Runs of a class sequence: 'u' counts each, 'a' and 'r' count once per run. */
function runs(classes: string[]): number {
  let n = 0;
  classes.forEach((c, i) => {
    if (c === 'u' || c !== classes[i - 1]) n++;
  });
  return n;
}

const callTypes = ['function_call', 'custom_tool_call', 'local_shell_call', 'web_search_call'];
const outputTypes = ['function_call_output', 'custom_tool_call_output'];

function responsesItems(items: any[]): Counts {
  const classes: string[] = [];
  const calls = new Set<string>();
  let results = 0;
  for (const it of items) {
    const type = it.type ?? 'message';
    if (type === 'message' && it.role === 'user') classes.push('u');
    else if (type === 'message' && it.role === 'assistant') classes.push('a');
    else if (callTypes.includes(type)) {
      classes.push('a');
      calls.add(it.call_id ?? it.id);
    } else if (outputTypes.includes(type)) {
      classes.push('r');
      if (calls.has(it.call_id)) results++;
    }
  }
  return { messages: runs(classes), toolCalls: calls.size, results, errors: 0, agents: 1 };
}

/** Codex rollout: response_item payloads are Responses items; user turns may exist only as event_msg user_message. */
export function codexCounts(file: string): Counts {
  const items: any[] = [];
  for (const l of lines(file)) {
    if (l.type === 'response_item') items.push(l.payload);
    if (l.type === 'event_msg' && l.payload.type === 'user_message')
      items.push({ type: 'message', role: 'user', content: l.payload.message });
  }
  const hasItemUsers = lines(file).some((l) => l.type === 'response_item' && l.payload.role === 'user');
  if (hasItemUsers)
    throw new Error('this count assumes user turns only in event_msg (true of the shipped file)');
  return responsesItems(items);
}

/** NeMo Gym rollouts: responses_create_params.input + response.output per line; summed over lines. */
export function responsesJsonlCounts(file: string): Counts {
  return sum(
    lines(file).map((l) => responsesItems([...l.responses_create_params.input, ...l.response.output])),
  );
}

export function responsesArrayCounts(file: string): Counts {
  return responsesItems(JSON.parse(readFileSync(file, 'utf8')));
}

/** Gemini CLI ConversationRecord: user / gemini messages; tool calls carry their results. */
export function geminiCounts(file: string): Counts {
  const record = JSON.parse(readFileSync(file, 'utf8'));
  const c: Counts = { messages: 0, toolCalls: 0, results: 0, errors: 0, agents: 1 };
  for (const m of record.messages) {
    if (m.type === 'user') c.messages++;
    if (m.type !== 'gemini') continue;
    const text =
      typeof m.content === 'string' ? m.content : (m.content ?? []).map((p: any) => p.text ?? '').join('');
    const calls = m.toolCalls ?? [];
    if (text.trim() !== '' && calls.length === 0) c.messages++;
    // One record may hold several model rounds (issue 28 item 3): calls stamped at the same moment form
    // a round; each round is an assistant message plus, when any call of it was answered, a result message.
    const rounds: any[][] = [];
    for (const t of calls) {
      const prev = rounds.at(-1)?.at(-1);
      if (!prev || Math.abs(Date.parse(t.timestamp) - Date.parse(prev.timestamp)) > 50) rounds.push([]);
      rounds.at(-1)!.push(t);
    }
    for (const r of rounds) c.messages += r.some((t: any) => t.result != null) ? 2 : 1;
    const answered = calls.filter((t: any) => t.result != null);
    c.toolCalls += calls.length;
    c.results += answered.length;
    c.errors += answered.filter((t: any) => t.status === 'error' || t.status === 'cancelled').length;
  }
  return c;
}

/** inspect_ai .eval: a zip of samples/<id>_epoch_<n>.json, each with ChatMessages. Per sample, in sample-name order. */
export function inspectEvalCounts(file: string): { name: string; counts: Counts }[] {
  const zip = unzipSync(new Uint8Array(readFileSync(file)));
  return Object.keys(zip)
    .filter((n) => n.startsWith('samples/'))
    .sort()
    .map((name) => {
      const sample = JSON.parse(strFromU8(zip[name]!));
      const classes: string[] = [];
      const c: Counts = { messages: 0, toolCalls: 0, results: 0, errors: 0, agents: 1 };
      for (const m of sample.messages) {
        if (m.role === 'user') classes.push('u');
        if (m.role === 'assistant') {
          const text =
            typeof m.content === 'string'
              ? m.content
              : m.content
                  .filter((p: any) => p.type === 'text')
                  .map((p: any) => p.text)
                  .join('');
          if (text.trim() !== '' || (m.tool_calls ?? []).length > 0) classes.push('A');
          c.toolCalls += (m.tool_calls ?? []).length;
        }
        if (m.role === 'tool') {
          classes.push('r');
          c.results++;
          if (m.error) c.errors++;
        }
      }
      // Each assistant message is its own message ('A' never merges); tool messages in a row share one.
      c.messages = classes.filter((x, i) => x !== 'r' || classes[i - 1] !== 'r').length;
      return { name, counts: c };
    });
}

/** OpenHands trajectory: a list of events; tool actions carry tool_call_metadata, observations point back by cause. */
export function openhandsTrajectoryCounts(file: string): Counts {
  const events = JSON.parse(readFileSync(file, 'utf8'));
  const toolActions = new Set<number>();
  const classes: string[] = [];
  let results = 0;
  let errors = 0;
  const responses = new Set<string>();
  for (const e of events) {
    if (e.action === 'message') classes.push(e.source === 'user' ? 'u' : 'A');
    else if (e.action && e.tool_call_metadata) {
      toolActions.add(e.id);
      const rid = e.tool_call_metadata.model_response?.id;
      if (!responses.has(rid)) classes.push('A');
      responses.add(rid);
    } else if (e.observation && toolActions.has(e.cause)) {
      classes.push('r');
      results++;
      if (e.observation === 'error') errors++;
    }
  }
  const messages = classes.filter((x, i) => x !== 'r' || classes[i - 1] !== 'r').length;
  return { messages, toolCalls: toolActions.size, results, errors, agents: 1 };
}

function sum(cs: Counts[]): Counts {
  return cs.reduce(
    (a, c) => ({
      messages: a.messages + c.messages,
      toolCalls: a.toolCalls + c.toolCalls,
      results: a.results + c.results,
      errors: a.errors + c.errors,
      agents: Math.max(a.agents, c.agents),
    }),
    { messages: 0, toolCalls: 0, results: 0, errors: 0, agents: 0 },
  );
}

/**
 * OpenHands resolver output.jsonl (ResolverOutput, OpenHands ≤ 0.x resolver): `history` is the event
 * list serialised flat (an action's fields beside `action`, an observation's beside `observation`),
 * with no ids: an observation follows the action it answers. The first `message` is the task (user);
 * every other action is one agent step (one assistant message, a tool call unless it is a message);
 * `finish` gets no observation. Per line, in file order.
 */
export function openhandsResolverCounts(file: string): Counts[] {
  const bookkeeping = ['system', 'recall', 'change_agent_state'];
  return lines(file).map((l) => {
    const c: Counts = { messages: 0, toolCalls: 0, results: 0, errors: 0, agents: 1 };
    let awaiting = false; // the event before was a tool action that expects an observation
    let seenMessage = false;
    for (const e of l.history.flat()) {
      const answers = awaiting;
      awaiting = false;
      if (e.action === 'message') {
        c.messages++;
        seenMessage = true;
      } else if (e.action && !bookkeeping.includes(e.action)) {
        c.messages++;
        c.toolCalls++;
        awaiting = e.action !== 'finish';
      } else if (e.observation && answers) {
        c.messages++;
        c.results++;
        if (e.observation === 'error') c.errors++;
      }
    }
    if (!seenMessage) throw new Error('this count assumes the task message (true of the shipped file)');
    return c;
  });
}
