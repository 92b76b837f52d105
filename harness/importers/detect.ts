import { statSync } from 'node:fs';
import { ImportError } from '../core/errors.ts';
import { importFormats, type ImportFormat } from './importer.ts';
import { syntaxErrorLine } from './json-locate.ts';
import { isRecord, readBytes, readSource } from './source.ts';

/** Which importer reads `path`: by shape, not by extension (a .json may hold any of three formats). */
export function detectFormat(path: string): ImportFormat {
  let isDir = false;
  try {
    isDir = statSync(path).isDirectory();
  } catch (err) {
    throw new ImportError(path, undefined, 'no such file or directory', { cause: err });
  }
  if (isDir) return 'claude-code';
  if (path.endsWith('.eval') || isZip(path)) return 'inspect';
  const text = readSource(path);
  const first = firstValue(path, text);
  const format = formatOfValue(first.value, first.jsonl);
  if (!format) {
    throw new ImportError(
      path,
      1,
      `unrecognised transcript format; the formats read are ${importFormats.join(', ')} (pass --from to choose one)`,
    );
  }
  return format;
}

/** The whole document when it is one JSON value, else the first line of JSON Lines. */
function firstValue(path: string, text: string): { value: unknown; jsonl: boolean } {
  try {
    return { value: JSON.parse(text), jsonl: false };
  } catch (docError) {
    const lines = text.split('\n');
    try {
      return { value: JSON.parse(lines.find((l) => l.trim() !== '') ?? ''), jsonl: true };
    } catch {
      // Not JSON Lines either: report the document's own error (a cut-off .json, most likely).
      const line = syntaxErrorLine(text) ?? lines.length;
      throw new ImportError(
        path,
        line,
        `invalid JSON (neither a JSON document nor JSON Lines): ${(docError as Error).message.slice(0, 120)}`,
      );
    }
  }
}

function formatOfValue(v: unknown, jsonl: boolean): ImportFormat | undefined {
  if (isRecord(v)) return formatOfRecord(v, jsonl);
  if (Array.isArray(v) && !jsonl) return formatOfArray(v);
  return undefined;
}

/** Codex rollout line types (codex-rs/protocol RolloutItem). */
const rolloutTypes = new Set(['session_meta', 'response_item', 'event_msg', 'turn_context', 'compacted']);

function formatOfRecord(v: Record<string, unknown>, jsonl: boolean): ImportFormat | undefined {
  if (typeof v.type === 'string' && rolloutTypes.has(v.type) && 'payload' in v) return 'codex';
  if (typeof v.sessionId === 'string' && typeof v.projectHash === 'string') return 'gemini';
  if (Array.isArray(v.history) && ('instance_id' in v || 'issue' in v) && !v.history.some(hasRole))
    return 'openhands';
  if (
    typeof v.type === 'string' &&
    ('sessionId' in v || 'uuid' in v || 'leafUuid' in v || 'parentUuid' in v || 'messageId' in v)
  )
    return 'claude-code';
  if (isRecord(v.responses_create_params) || (v.object === 'response' && Array.isArray(v.output)))
    return 'responses';
  if (jsonl) return undefined;
  // SWE-agent writes {history, trajectory, info, …}; a trimmed .traj may hold only history, whose
  // entries are chat messages (OpenHands histories are events with action/observation instead).
  if (Array.isArray(v.history) && ('trajectory' in v || 'info' in v || v.history.some(hasRole)))
    return 'swe-agent';
  if (Array.isArray(v.trajectory) && v.trajectory.some(isEvent)) return 'openhands';
  if (isRecord(v.eval) && ('samples' in v || 'version' in v)) return 'inspect';
  if (Array.isArray(v.traj)) return 'openai';
  if (Array.isArray(v.input) && v.input.some(isResponsesItem)) return 'responses';
  if (Array.isArray(v.messages))
    return chatFlavour(v.messages, 'system' in v && !v.messages.some(isRecordWithRole('system')));
  return undefined;
}

function formatOfArray(v: unknown[]): ImportFormat | undefined {
  if (v.length > 0 && v.every((e) => isRecord(e) && Array.isArray(e.traj))) return 'openai';
  if (v.some(isEvent)) return 'openhands';
  if (v.some(isResponsesItem)) return 'responses';
  return chatFlavour(v, false);
}

/** An OpenHands event: an action or observation with a numeric event id. */
const isEvent = (e: unknown): boolean =>
  isRecord(e) && typeof e.id === 'number' && (typeof e.action === 'string' || 'observation' in e);

/** Item types only the Responses API has (a chat message never carries them). */
const responsesTypes = new Set([
  'function_call',
  'function_call_output',
  'reasoning',
  'custom_tool_call',
  'custom_tool_call_output',
  'web_search_call',
  'file_search_call',
  'computer_call',
  'computer_call_output',
  'local_shell_call',
  'mcp_call',
  'item_reference',
]);

function isResponsesItem(e: unknown): boolean {
  if (!isRecord(e) || typeof e.type !== 'string') return false;
  if (responsesTypes.has(e.type)) return true;
  return (
    e.type === 'message' &&
    Array.isArray(e.content) &&
    e.content.some((p: unknown) => isRecord(p) && /^(input|output)_text$/.test(String(p.type)))
  );
}

function isZip(path: string): boolean {
  const head = readBytes(path).subarray(0, 4);
  return head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04;
}

const hasRole = (m: unknown): boolean => isRecord(m) && typeof m.role === 'string';
const isRecordWithRole = (role: string) => (m: unknown) => isRecord(m) && m.role === role;

/** OpenAI and Anthropic messages look alike until a tool call, a system role or a block type tells them apart. */
function chatFlavour(messages: unknown[], topLevelSystem: boolean): ImportFormat | undefined {
  if (messages.length > 0 && !messages.every((m) => isRecord(m) && typeof m.role === 'string'))
    return undefined;
  const anthropicBlocks = new Set([
    'tool_use',
    'tool_result',
    'thinking',
    'redacted_thinking',
    'image',
    'document',
  ]);
  for (const m of messages as Record<string, unknown>[]) {
    if (
      ['tool', 'system', 'developer', 'function'].includes(String(m.role)) ||
      'tool_calls' in m ||
      'tool_call_id' in m
    )
      return 'openai';
    if (
      Array.isArray(m.content) &&
      m.content.some((b: unknown) => isRecord(b) && anthropicBlocks.has(String(b.type)))
    )
      return 'anthropic';
  }
  return topLevelSystem ? 'anthropic' : 'openai';
}
