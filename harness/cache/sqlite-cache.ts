import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import type { ModelRequest, ModelResponse } from '../types.ts';
import type { ResponseCache } from './types.ts';

/**
 * Responses keyed by sha256 of canonical (key-sorted) JSON of exactly the request fields that change
 * the output: provider, model, system, messages, tools, tool choice, max tokens, temperature, and the
 * seed (run seed, case, rep, purpose, call index — so reps are distinct samples). Never an error.
 */
export class SqliteCache implements ResponseCache {
  private db: Database.Database;
  private getStmt: Database.Statement;
  private setStmt: Database.Statement;

  constructor(dir: string) {
    mkdirSync(dir, { recursive: true });
    this.db = new Database(join(dir, 'responses.sqlite'));
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('busy_timeout = 5000');
    this.db.exec('CREATE TABLE IF NOT EXISTS responses (key TEXT PRIMARY KEY, value TEXT NOT NULL, created_at INTEGER NOT NULL)');
    this.getStmt = this.db.prepare('SELECT value FROM responses WHERE key = ?');
    this.setStmt = this.db.prepare('INSERT OR REPLACE INTO responses (key, value, created_at) VALUES (?, ?, ?)');
  }

  keyOf(provider: string, r: ModelRequest): string {
    const fields = { provider, model: r.model, system: r.system ?? null, messages: r.messages, tools: r.tools ?? null, toolChoice: r.toolChoice ?? null, maxTokens: r.maxTokens, temperature: r.temperature ?? null, seed: r.seed, purpose: r.purpose, sim: provider === 'sim' ? (r.sim ?? null) : null };
    return createHash('sha256').update(canonicalJson(fields)).digest('hex');
  }

  get(key: string): ModelResponse | undefined {
    const row = this.getStmt.get(key) as { value: string } | undefined;
    return row ? (JSON.parse(row.value) as ModelResponse) : undefined;
  }

  set(key: string, response: ModelResponse): void {
    this.setStmt.run(key, JSON.stringify(response), Date.now());
  }

  close(): void {
    this.db.close();
  }
}

/** JSON with object keys sorted at every level, so equal requests hash equally. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const keys = Object.keys(value).filter((k) => (value as Record<string, unknown>)[k] !== undefined).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
}
