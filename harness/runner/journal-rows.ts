import { readFileSync, statSync } from 'node:fs';
import type { ResultRow } from '../core/index.ts';
import { InputError } from '../core/errors.ts';

/**
 * results.jsonl as a resume or `report` reads it, checked: a directory, bytes that are not UTF-8, a
 * torn line in the middle (not a kill's torn last line, which is dropped), a line that is not a row
 * object, or a row without its identity fields is bad input — an InputError naming the file, the line
 * and the field (exit 2), with the file left as it is, so nothing already journalled is lost.
 */
export function readJournalRows(path: string): ResultRow[] {
  const st = statSync(path, { throwIfNoEntry: false });
  if (!st) return [];
  if (!st.isFile()) throw bad(`${path}: is not a file (a results journal is a JSONL file)`);
  const bytes = readFileSync(path);
  const lines = splitLines(bytes);
  const rows: ResultRow[] = [];
  const lastFull = lastNonEmpty(lines);
  lines.forEach((raw, i) => {
    const at = `${path}:${i + 1}`;
    let line: string;
    try {
      line = utf8.decode(raw);
    } catch {
      throw bad(`${at}: not valid UTF-8 (a corrupted write); restore the file or move the line out`);
    }
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      // A kill mid-write leaves a torn last line: dropped (the run appends after cutting it).
      if (i === lastFull && !bytes.subarray(-1).equals(NL)) return;
      throw bad(
        `${at}: not a complete JSON line (a torn write inside the journal); move the line out to resume`,
      );
    }
    rows.push(checkRow(value, at));
  });
  return rows;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
const NL = Buffer.from('\n');

function checkRow(value: unknown, at: string): ResultRow {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw bad(
      `${at}: a row must be a JSON object (got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value})`,
    );
  const row = value as Record<string, unknown>;
  for (const field of ['cell_id', 'status'] as const)
    if (typeof row[field] !== 'string' || row[field] === '')
      throw bad(
        `${at}: field ${field}: must be a non-empty string (got ${JSON.stringify(row[field]) ?? 'nothing'})`,
      );
  if (row.status !== 'ok' && row.status !== 'error')
    throw bad(`${at}: field status: must be "ok" or "error" (got ${JSON.stringify(row.status)})`);
  return row as unknown as ResultRow;
}

function splitLines(bytes: Buffer): Buffer[] {
  const out: Buffer[] = [];
  let start = 0;
  for (let i = bytes.indexOf(0x0a); i >= 0; i = bytes.indexOf(0x0a, start)) {
    out.push(bytes.subarray(start, i));
    start = i + 1;
  }
  out.push(bytes.subarray(start));
  return out;
}

function lastNonEmpty(lines: Buffer[]): number {
  for (let i = lines.length - 1; i >= 0; i--) if (lines[i]!.toString('latin1').trim() !== '') return i;
  return -1;
}

function bad(message: string): InputError {
  return new InputError('bad_journal', message);
}
