import { strFromU8, unzipSync } from 'fflate';
import { ImportError } from '../core/errors.ts';
import type { JsonPath } from './json-locate.ts';
import { isRecord, parseJsonDoc, readBytes, readSource, type JsonDoc } from './source.ts';

/** An inspect_ai log as the importer needs it: the eval spec, every sample in order, a way to fail. */
export interface InspectLog {
  eval: Record<string, unknown>;
  samples: unknown[];
  /** Reports a problem at a path inside sample `i` (or the log when i is undefined). */
  fail: (sample: number | undefined, path: JsonPath, detail: string) => never;
}

/** `.eval` logs are zip archives (inspect_ai/log/_recorders/eval.py); anything else is EvalLog JSON. */
export function readInspectLog(file: string): InspectLog {
  return isZip(file) ? readEvalZip(file) : readEvalJson(file);
}

function isZip(file: string): boolean {
  if (file.endsWith('.eval')) return true;
  const head = readBytes(file).subarray(0, 4);
  return head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04;
}

function readEvalJson(file: string): InspectLog {
  const doc: JsonDoc = parseJsonDoc(file, readSource(file));
  const root = doc.value;
  if (!isRecord(root) || !isRecord(root.eval))
    return doc.fail([], 'not an inspect_ai EvalLog: expected {eval, samples, …}');
  const samples = Array.isArray(root.samples) ? root.samples : [];
  return {
    eval: root.eval,
    samples,
    fail: (i, path, detail) => doc.fail(i === undefined ? path : ['samples', i, ...path], detail),
  };
}

/**
 * The zip holds `header.json` (written when the eval finishes; `_journal/start.json` before that),
 * one `samples/<id>_epoch_<n>.json` per sample (a re-logged sample appends a member of the same name:
 * the last one wins, as inspect reads it), summaries and reductions. Samples are ordered by
 * (epoch, id) — inspect's own `sort_samples`.
 */
function readEvalZip(file: string): InspectLog {
  let members: Record<string, Uint8Array>;
  try {
    members = unzipSync(new Uint8Array(readBytes(file)), {
      filter: (f) =>
        f.name === 'header.json' || f.name === '_journal/start.json' || /^samples\/.+\.json$/.test(f.name),
    });
  } catch (err) {
    throw new ImportError(file, undefined, `not a readable inspect .eval zip: ${(err as Error).message}`, {
      cause: err,
    });
  }
  const json = (name: string): unknown => {
    try {
      return JSON.parse(strFromU8(members[name]!));
    } catch (err) {
      throw new ImportError(
        file,
        undefined,
        `${name}: invalid JSON: ${(err as Error).message.slice(0, 120)}`,
        {
          cause: err,
        },
      );
    }
  };
  const headerName = 'header.json' in members ? 'header.json' : '_journal/start.json';
  if (!(headerName in members))
    throw new ImportError(
      file,
      undefined,
      'zip has neither header.json nor _journal/start.json: not an inspect .eval log',
    );
  const header = json(headerName);
  if (!isRecord(header) || !isRecord(header.eval))
    throw new ImportError(file, undefined, `${headerName}: no eval spec`);
  const names = Object.keys(members).filter((n) => n.startsWith('samples/'));
  const samples = names.map((n) => ({ name: n, value: json(n) }));
  samples.sort((a, b) => compareSamples(a.value, b.value));
  return {
    eval: header.eval,
    samples: samples.map((s) => s.value),
    fail: (i, path, detail) => {
      const where = i === undefined ? '' : `${samples[i]!.name}: `;
      throw new ImportError(file, undefined, `${where}${path.length ? `${path.join('.')}: ` : ''}${detail}`);
    },
  };
}

function compareSamples(a: unknown, b: unknown): number {
  const key = (s: unknown): [number, string] => {
    const r = isRecord(s) ? s : {};
    const id = typeof r.id === 'number' ? String(r.id).padStart(20, '0') : String(r.id ?? '');
    return [typeof r.epoch === 'number' ? r.epoch : 0, id];
  };
  const [ea, ia] = key(a);
  const [eb, ib] = key(b);
  return ea - eb || (ia < ib ? -1 : ia > ib ? 1 : 0);
}

/** inspect replaces large or repeated content with `attachment://<hash>` (older logs: `tc://`); resolve them. */
export function resolveAttachments(value: unknown, attachments: Record<string, unknown>): unknown {
  if (typeof value === 'string') {
    const m = /^(?:attachment|tc):\/\/(.+)$/.exec(value);
    return m && typeof attachments[m[1]!] === 'string' ? attachments[m[1]!] : value;
  }
  if (Array.isArray(value)) return value.map((v) => resolveAttachments(v, attachments));
  if (isRecord(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = resolveAttachments(v, attachments);
    return out;
  }
  return value;
}
