import { readFileSync, statSync } from 'node:fs';
import { readText, stripBom } from '../core/text/read-text.ts';
import { ImportError } from '../core/errors.ts';
import { countSkip, type Skipped } from './builder.ts';
import { formatPath, lineOfPath, syntaxErrorLine, type JsonPath } from './json-locate.ts';

/**
 * Contents of non-regular files (a pipe such as `import <(cat f)`, a FIFO) read once, before the
 * import, by readPipe (pipe.ts): a pipe cannot be read twice (detection, then the importer) nor read
 * synchronously without risking a hang.
 */
const piped = new Map<string, Buffer>();

export function providePiped(file: string, bytes: Buffer): void {
  piped.set(file, bytes);
}

/** The file's bytes: a regular file, or a pipe read beforehand; anything else is an ImportError. */
export function readBytes(file: string): Buffer {
  const early = piped.get(file);
  if (early) return early;
  checkRegular(file);
  return readFileSync(file);
}

/** Reads a file as UTF-8; a missing file, a directory or an unread pipe is an ImportError naming the path. */
export function readSource(file: string): string {
  const early = piped.get(file);
  if (early) return stripBom(early.toString('utf8'));
  checkRegular(file);
  return readText(file);
}

function checkRegular(file: string): void {
  let st: ReturnType<typeof statSync>;
  try {
    st = statSync(file);
  } catch (err) {
    throw new ImportError(file, undefined, 'no such file', { cause: err });
  }
  if (st.isDirectory()) throw new ImportError(file, undefined, 'is a directory; expected a transcript file');
  // A FIFO with no writer would block a synchronous read forever (and with it every signal handler).
  if (!st.isFile())
    throw new ImportError(
      file,
      undefined,
      `is not a regular file (${st.isFIFO() ? 'a FIFO or pipe' : st.isCharacterDevice() ? 'a character device' : 'a socket or device'}); save it to a file first`,
    );
}

/**
 * A parsed JSON document that can point at its own lines: structural errors found after parsing
 * (`doc.fail(['messages', 5, 'content'], 'unknown block type')`) carry the line where that value starts.
 */
export class JsonDoc {
  constructor(
    readonly file: string,
    readonly text: string,
    readonly value: unknown,
  ) {}

  fail(path: JsonPath, detail: string): never {
    const where = path.length > 0 ? `${formatPath(path)}: ` : '';
    throw new ImportError(this.file, lineOfPath(this.text, path), `${where}${detail}`);
  }
}

export function parseJsonDoc(file: string, text: string): JsonDoc {
  try {
    return new JsonDoc(file, text, JSON.parse(text));
  } catch (err) {
    const line = syntaxErrorLine(text) ?? text.split('\n').length;
    const hint =
      text.trimStart().startsWith('{') && text.trim().includes('}\n{')
        ? ' (several JSON values: is this JSONL?)'
        : '';
    throw new ImportError(file, line, `invalid JSON${hint}: ${(err as Error).message.slice(0, 160)}`, {
      cause: err,
    });
  }
}

export interface JsonlLine {
  /** 1-based line number in the file. */
  line: number;
  value: unknown;
}

/**
 * Parses JSON Lines. A session that was still being written ends in a cut-off line: an unparsable
 * LAST line (after at least one good line) is counted as `truncated_line`; anywhere else it is an
 * error with its line number.
 */
export function parseJsonl(file: string, text: string, skipped: Skipped): JsonlLine[] {
  const raw = text.split('\n');
  let lastNonEmpty = raw.length - 1;
  while (lastNonEmpty >= 0 && raw[lastNonEmpty]!.trim() === '') lastNonEmpty--;
  const out: JsonlLine[] = [];
  for (let i = 0; i <= lastNonEmpty; i++) {
    const line = raw[i]!;
    if (line.trim() === '') continue;
    try {
      out.push({ line: i + 1, value: JSON.parse(line) });
    } catch (err) {
      if (i === lastNonEmpty && out.length > 0) {
        countSkip(skipped, 'truncated_line');
        continue;
      }
      throw new ImportError(file, i + 1, `invalid JSON line: ${(err as Error).message.slice(0, 160)}`, {
        cause: err,
      });
    }
  }
  return out;
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A tool result's or message's content as text: strings as they are, anything else as JSON. */
export function stringify(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === undefined || v === null) return '';
  return JSON.stringify(v);
}

/** OpenAI-style `arguments` JSON strings become objects; unparsable ones stay the raw string. */
export function parseArguments(args: unknown): unknown {
  if (typeof args !== 'string') return args ?? {};
  if (args.trim() === '') return {};
  try {
    return JSON.parse(args) as unknown;
  } catch {
    return args;
  }
}
