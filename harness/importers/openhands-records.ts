import { ImportError } from '../core/errors.ts';
import { countSkip, type Skipped } from './builder.ts';
import type { ImportOptions } from './importer.ts';
import { isRecord, readSource, stringify } from './source.ts';

/**
 * The records of an OpenHands file (openhands.ts): EvalOutput / ResolverOutput JSONL lines
 * (openhands/evaluation: one `EvalOutput` a line; openhands/resolver: one `ResolverOutput` a line), or
 * one trajectory. Picking an instance by id or index.
 */
export const isNamed = (v: Record<string, unknown>): boolean =>
  v.instance_id !== undefined || isRecord(v.issue);

export interface OhRecord {
  value: Record<string, unknown>;
  /** 1-based JSONL line, or 1 for a JSON document. */
  line: number;
  index: number;
  /** Why this line is not an instance (the others still import). */
  error?: string;
}

/**
 * EvalOutput / ResolverOutput lines, or one trajectory wrapped as a record with a history. In a JSONL
 * of instances one bad line (invalid JSON, or not a record with a history) does not cost the others:
 * it stays a record carrying its error, reported when that instance is imported (and by
 * `import --all`), counted as `bad_record` when another one is. A file with no good line at all is
 * not OpenHands: its first error is thrown.
 */
export function readRecords(file: string, skipped: Skipped): OhRecord[] {
  const text = readSource(file);
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    doc = undefined;
  }
  if (Array.isArray(doc)) return [{ value: { history: doc }, line: 1, index: 0 }];
  if (isRecord(doc) && Array.isArray(doc.trajectory))
    return [{ value: { history: doc.trajectory }, line: 1, index: 0 }];
  const lines = doc !== undefined ? [{ line: 1, value: doc }] : jsonlEach(text, skipped);
  if (lines.length === 0) throw new ImportError(file, undefined, 'empty file');
  const records = lines.map((l, index): OhRecord => {
    if ('error' in l) return { value: {}, line: l.line, index, error: l.error };
    if (!isRecord(l.value) || !Array.isArray(l.value.history))
      return { value: {}, line: l.line, index, error: notOpenHands };
    return { value: l.value, line: l.line, index };
  });
  const firstBad = records.find((r) => r.error !== undefined);
  if (firstBad && records.every((r) => r.error !== undefined))
    throw new ImportError(file, firstBad.line, firstBad.error!);
  return records;
}

const notOpenHands =
  'not an OpenHands EvalOutput line (nor a ResolverOutput line, nor a trajectory: expected a history list or a list of events)';

/** Each line parsed on its own; a cut-off LAST line (a file still being written) is `truncated_line`. */
function jsonlEach(
  text: string,
  skipped: Skipped,
): ({ line: number; value: unknown } | { line: number; error: string })[] {
  const raw = text.split('\n');
  let last = raw.length - 1;
  while (last >= 0 && raw[last]!.trim() === '') last--;
  const out: ({ line: number; value: unknown } | { line: number; error: string })[] = [];
  for (let i = 0; i <= last; i++) {
    if (raw[i]!.trim() === '') continue;
    try {
      out.push({ line: i + 1, value: JSON.parse(raw[i]!) });
    } catch (err) {
      if (i === last && out.some((l) => 'value' in l)) countSkip(skipped, 'truncated_line');
      else out.push({ line: i + 1, error: `invalid JSON line: ${(err as Error).message.slice(0, 160)}` });
    }
  }
  return out;
}

/** instance_id (EvalOutput), owner__repo-number (ResolverOutput), or the record's index. */
export function instanceName(v: Record<string, unknown>, index: number): string {
  if (v.instance_id !== undefined) return stringify(v.instance_id);
  const issue = isRecord(v.issue) ? v.issue : undefined;
  if (issue && issue.repo !== undefined)
    return `${stringify(issue.owner)}__${stringify(issue.repo)}-${stringify(issue.number)}`;
  return `record-${index}`;
}

export function pickInstance(
  file: string,
  records: OhRecord[],
  options: ImportOptions,
): { record: OhRecord; index: number } {
  const wanted = options.instance ?? 0;
  const ids = records.map((r) => instanceName(r.value, r.index));
  let index = ids.indexOf(String(wanted));
  if (index < 0 && /^\d+$/.test(String(wanted))) index = Number(wanted);
  const record = records[index];
  if (index < 0 || !record) {
    throw new ImportError(
      file,
      undefined,
      `no instance "${wanted}"; this file has ${records.length}: ${ids.map((id, i) => `${i}=${id}`).join(', ')}`,
    );
  }
  if (record.error !== undefined) {
    const others = records.length - records.filter((r) => r.error !== undefined).length;
    throw new ImportError(
      file,
      record.line,
      `instance ${index}: ${record.error} (the file's ${others} other instance${others === 1 ? '' : 's'} import with --instance)`,
    );
  }
  return { record, index };
}
