import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { hash } from 'node:crypto';
import Database from 'better-sqlite3';
import type { ModelRequest, ModelResponse } from '../core/index.ts';
import type { ResponseCache } from './types.ts';
import { storedResponse } from './stored-response.ts';
import { DamagedCache, moveAside } from './move-aside.ts';
import { canonicalJson } from './canonical-json.ts';

export const CACHE_FILE = 'responses.sqlite';

export { canonicalJson };

/**
 * Bumped when the key recipe or the stored shape changes, so old entries are simply never hit.
 * v3: provider scopes carry the sim's rates and behaviour version and the wire format versions, and
 * unusable answers (empty, refused, content-filtered) are no longer stored.
 */
const KEY_VERSION = 'handoff-eval/response-cache/v3';

export interface SqliteCacheOptions {
  /** Pending writes that trigger a flush. @default 64 */
  batchSize?: number;
  /** Longest a write waits before its batch is flushed. @default 250 */
  flushMs?: number;
  /** Told once when an entry cannot be read (a damaged page): such entries are misses. */
  onWarning?: (line: string) => void;
  /** A file SQLite calls damaged is moved aside and DamagedCache thrown (openCache then starts afresh). */
  moveAsideIfDamaged?: boolean;
}

/**
 * Responses keyed by sha256 of canonical (key-sorted) JSON of exactly the request fields that change
 * the output: provider (+ its scope: base URL and wire format, or the sim's rates and behaviour
 * version — Provider.cacheScope), model, system, messages, tools, tool choice,
 * max tokens, temperature, and the seed (run seed, case, rep, purpose, call index — so reps are
 * distinct samples). The sim's case hints are in the key only for the sim, whose output they drive.
 *
 * Store: SQLite in WAL mode — readers never block the writer, a crash (even kill -9) leaves the last
 * committed transaction intact, and several processes (shards, a resume next to a run) can write the
 * same file: busy_timeout waits for the lock instead of failing. Writes are batched into one
 * transaction per flush, off the per-call hot path; a batch lost to a crash only costs a re-call.
 * The first stored answer for a key wins (INSERT OR IGNORE), so concurrent writers agree afterwards.
 */
export class SqliteCache implements ResponseCache {
  private db: Database.Database;
  private getStmt: Database.Statement;
  private setStmt: Database.Statement;
  private pending = new Map<string, string>();
  private timer: NodeJS.Timeout | undefined;
  private readonly batchSize: number;
  private readonly flushMs: number;
  private writeBatch: (entries: [string, string][]) => void;
  /** Flushes that failed (e.g. the lock was held longer than busy_timeout); their entries are retried. */
  writeErrors = 0;
  /** Lookups that failed on a damaged file: served as misses. */
  readErrors = 0;
  private readonly file: string;
  private readonly onWarning: (line: string) => void;

  constructor(dir: string, options: SqliteCacheOptions = {}) {
    mkdirSync(dir, { recursive: true });
    this.batchSize = options.batchSize ?? 64;
    this.flushMs = options.flushMs ?? 250;
    this.onWarning = options.onWarning ?? (() => {});
    this.file = join(dir, CACHE_FILE);
    this.db = new Database(this.file, { timeout: 10_000 });
    try {
      // busy_timeout first: switching to WAL takes a lock another process may hold right now.
      this.db.pragma('busy_timeout = 10000');
      this.db.pragma('journal_mode = WAL');
      this.db.pragma('synchronous = NORMAL');
      this.db.exec(
        'CREATE TABLE IF NOT EXISTS responses (key TEXT PRIMARY KEY, value TEXT NOT NULL, created_at INTEGER NOT NULL)',
      );
      this.getStmt = this.db.prepare('SELECT value FROM responses WHERE key = ?').pluck();
      this.setStmt = this.db.prepare(
        'INSERT OR IGNORE INTO responses (key, value, created_at) VALUES (?, ?, ?)',
      );
    } catch (err) {
      // Moved before close: closing deletes a -wal SQLite could not use, and with it what was in it.
      const aside = options.moveAsideIfDamaged && isCorruption(err) ? moveAside(this.file) : undefined;
      this.db.close();
      throw aside ? new DamagedCache(this.file, aside, sqliteReason(err), { cause: err }) : err;
    }
    this.writeBatch = this.db.transaction((entries: [string, string][]) => {
      const now = Date.now();
      for (const [k, v] of entries) this.setStmt.run(k, v, now);
    });
  }

  keyOf(provider: string, r: ModelRequest, scope = ''): string {
    // One-shot hash (node >= 20.12): the same digest as createHash().update().digest(), without a Hash object per call.
    return hash('sha256', requestKeyJson(provider, r, scope), 'hex');
  }

  /** An entry that cannot be read (a damaged page) or is not a response is a miss, never an error. */
  get(key: string): ModelResponse | undefined {
    const value = this.pending.get(key) ?? this.read(key);
    if (value === undefined) return undefined;
    const response = storedResponse(value);
    if (!response) this.forget(key, value);
    return response;
  }

  /** A mis-shaped entry is deleted (only if it is still that value), so the fresh answer can be stored. */
  private forget(key: string, value: string): void {
    try {
      this.db.prepare('DELETE FROM responses WHERE key = ? AND value = ?').run(key, value);
    } catch {
      // Best effort: left in place it is just a miss again next time.
    }
  }

  private read(key: string): string | undefined {
    try {
      const value: unknown = this.getStmt.get(key);
      return typeof value === 'string' ? value : undefined;
    } catch (err) {
      if (this.readErrors++ === 0)
        this.onWarning(
          `handoff-eval: warning: response cache ${this.file}: an entry cannot be read (${sqliteReason(err)}); unreadable entries are misses — delete the file to rebuild the cache`,
        );
      return undefined;
    }
  }

  set(key: string, response: ModelResponse): void {
    if (!this.pending.has(key)) this.pending.set(key, JSON.stringify(response));
    if (this.pending.size >= this.batchSize) this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => this.flush(), this.flushMs);
      this.timer.unref();
    }
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.size === 0) return;
    const entries = [...this.pending];
    try {
      this.writeBatch(entries);
      for (const [k] of entries) this.pending.delete(k);
    } catch (err) {
      this.writeErrors++;
      // A damaged file refuses the same batch every time: drop it rather than hold it forever.
      if (isCorruption(err)) this.pending.clear();
    }
  }

  close(): void {
    this.flush();
    this.db.close();
  }
}

/** SQLite's own verdict that a file is damaged or not a database (not a lock, a permission or a full disk). */
export function isCorruption(err: unknown): boolean {
  return /^SQLITE_(CORRUPT|NOTADB)/.test(String((err as { code?: unknown } | null)?.code ?? ''));
}

export function sqliteReason(err: unknown): string {
  const e = err as { code?: unknown; message?: unknown } | null;
  return [e?.code, e?.message ?? String(err)].filter(Boolean).join(': ');
}

/**
 * The canonical text a request's key hashes: every output-changing field in a fixed order. Messages and
 * tool calls/results have known shapes and are written field by field (the hot part, done once per
 * call); values of unknown shape (tool inputs and schemas, the sim's hints) go through canonicalJson.
 */
export function requestKeyJson(provider: string, r: ModelRequest, scope: string): string {
  const head = JSON.stringify([
    KEY_VERSION,
    provider,
    scope,
    r.model,
    r.system ?? null,
    r.maxTokens,
    r.temperature ?? null,
    r.seed,
    r.purpose,
  ]);
  let out = `${head.slice(0, -1)},[`;
  r.messages.forEach((m, i) => {
    out += `${i ? ',' : ''}[${JSON.stringify(m.role)},${JSON.stringify(m.text ?? null)},`;
    out += m.toolCalls
      ? `[${m.toolCalls.map((c) => `[${JSON.stringify(c.id)},${JSON.stringify(c.name)},${canonicalJson(c.input)}]`).join(',')}]`
      : 'null';
    out += m.toolResults
      ? `,[${m.toolResults.map((t) => `[${JSON.stringify(t.callId)},${JSON.stringify(t.content)},${t.isError === true}]`).join(',')}]]`
      : ',null]';
  });
  out += `],${r.tools ? canonicalJson(r.tools) : 'null'},${r.toolChoice ? canonicalJson(r.toolChoice) : 'null'}`;
  return `${out},${provider === 'sim' && r.sim ? canonicalJson(r.sim) : 'null'}]`;
}
