import { createRequire } from 'node:module';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type Database from 'better-sqlite3';

/**
 * Where a live model's query runs. better-sqlite3 12 has no progress handler and no interrupt: a
 * statement that runs long (a cross join of table-valued functions, `hex(randomblob(4e8))`) blocks its
 * thread until it returns. So a live query runs on a worker thread of its own, and the tool waits for
 * it at most `timeoutMs` (synchronously: the tools are synchronous, and a recorded result and a live
 * one must be the same text). Past the deadline the tool answers with an error and the worker is
 * terminated; a statement already inside SQLite ends that thread when it returns, so at most
 * MAX_STOPPING such threads are let run at once and further queries are refused until one has stopped.
 */

export interface RowLimits {
  maxRows: number;
  maxResultChars: number;
}

/** A query's rows, or why it gave none: a refusal (a cap, the deadline) or SQLite's own error. */
export type Collected = { rows: (string | number | null)[][] } | { refusal: string } | { sqlError: string };

export type QueryExecutor = (sql: string, limits: RowLimits & { timeoutMs: number }) => Collected;

/**
 * Streams a prepared statement's rows under the row and size caps. Plain JavaScript in a TypeScript
 * file: the worker runs this very function (its source), so both paths give the same rows.
 */
export function collectRows(stmt: Database.Statement, maxRows: number, maxResultChars: number): Collected {
  const rows: (string | number | null)[][] = [];
  let chars = 0;
  try {
    for (const row of stmt.raw(true).iterate() as IterableIterator<unknown[]>) {
      if (rows.length === maxRows)
        return {
          refusal: `the query returns more than ${maxRows} rows (the row cap); add a WHERE clause, an aggregate or a LIMIT`,
        };
      const out = row.map((v) => {
        if (v === null || v === undefined) return null;
        if (typeof v === 'number' || typeof v === 'string') return v;
        if (typeof v === 'bigint') return v.toString();
        if (Buffer.isBuffer(v)) return `<blob ${v.length} bytes>`;
        return String(v);
      });
      rows.push(out);
      // Stop while streaming, before rendering: a generated value (printf, replace over a zeroblob)
      // can be hundreds of MB, past what a JS string can hold once the table is joined.
      chars += out.reduce((n: number, v) => n + String(v ?? '').length + 3, 1);
      if (chars > maxResultChars)
        return {
          refusal: `the result is over ${maxResultChars} characters; narrow the query (fewer columns, a WHERE clause, substr)`,
        };
    }
  } catch (err) {
    return { sqlError: (err as Error).message ?? String(err) };
  }
  return { rows };
}

/** Threads past their deadline still inside SQLite, over every world of this process. */
let stopping = 0;
const MAX_STOPPING = 2;
/** Loading better-sqlite3 on a fresh thread, on a busy machine: not part of a query's deadline. */
const BOOT_MS = 20_000;

const source = (driver: string) => `
const { workerData } = require('node:worker_threads');
const flag = new Int32Array(workerData.flag);
const port = workerData.port;
const collectRows = ${collectRows.toString()};
let db;
try {
  const Database = require(${JSON.stringify(driver)});
  db = new Database(workerData.file, { readonly: true, fileMustExist: true });
} catch (err) {
  port.postMessage({ sqlError: 'the query engine could not open the database: ' + err.message });
  Atomics.store(flag, 1, 2);
  Atomics.notify(flag, 1);
}
if (db) {
  port.on('message', ({ sql, maxRows, maxResultChars }) => {
    let reply;
    try {
      reply = collectRows(db.prepare(sql), maxRows, maxResultChars);
    } catch (err) {
      reply = { sqlError: err.message };
    }
    port.postMessage(reply);
    Atomics.store(flag, 0, 1);
    Atomics.notify(flag, 0);
  });
  Atomics.store(flag, 1, 1);
  Atomics.notify(flag, 1);
}
`;

/** A deadline-bound executor over a database file; `close` ends its worker. */
export function workerExecutor(file: string): { execute: QueryExecutor; close(): void } {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  let current: { worker: Worker; port: MessagePort; flag: Int32Array } | undefined;
  const start = () => {
    const flag = new Int32Array(new SharedArrayBuffer(8));
    const { port1, port2 } = new MessageChannel();
    const worker = new Worker(source(driver), {
      eval: true,
      workerData: { file, flag: flag.buffer, port: port2 },
      transferList: [port2],
    });
    worker.unref();
    port1.unref();
    Atomics.wait(flag, 1, 0, BOOT_MS);
    const booted = Atomics.load(flag, 1);
    if (booted !== 1) {
      const why = receiveMessageOnPort(port1)?.message as Collected | undefined;
      void worker.terminate();
      return why ?? { sqlError: 'the query engine did not start' };
    }
    current = { worker, port: port1, flag };
    return undefined;
  };
  return {
    execute(sql, { maxRows, maxResultChars, timeoutMs }) {
      if (!current) {
        if (stopping >= MAX_STOPPING)
          return {
            refusal: `earlier queries that ran past the time limit are still being stopped; try again with a narrower query`,
          };
        const failed = start();
        if (failed) return failed;
      }
      const { worker, port, flag } = current!;
      Atomics.store(flag, 0, 0);
      port.postMessage({ sql, maxRows, maxResultChars });
      if (Atomics.wait(flag, 0, 0, timeoutMs) === 'timed-out') {
        current = undefined;
        stopping++;
        void worker.terminate().finally(() => stopping--);
        return {
          refusal: `the query ran past the ${timeoutMs} ms time limit and was stopped; join on a condition, filter earlier or aggregate less`,
        };
      }
      return receiveMessageOnPort(port)!.message as Collected;
    },
    close() {
      void current?.worker.terminate();
      current = undefined;
    },
  };
}
