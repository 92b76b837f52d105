import { closeSync, existsSync, fsyncSync, openSync, readFileSync, writeSync } from 'node:fs';

/**
 * An append-only JSONL journal. Lines are buffered and written whole (one write per flush), so a
 * crash or Ctrl-C leaves only complete lines behind; a torn last line (power loss) is skipped on read.
 */
export class Journal<T> {
  private fd: number;
  private buffer: string[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(readonly path: string, private readonly flushEvery = 64, private readonly flushMs = 200) {
    this.fd = openSync(path, 'a');
  }

  append(entry: T): void {
    this.buffer.push(`${JSON.stringify(entry)}\n`);
    if (this.buffer.length >= this.flushEvery) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), this.flushMs);
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.buffer.length === 0) return;
    const chunk = this.buffer.join('');
    this.buffer = [];
    writeSync(this.fd, chunk);
  }

  close(): void {
    this.flush();
    fsyncSync(this.fd);
    closeSync(this.fd);
  }
}

/** Reads a JSONL journal; a torn trailing line is dropped, a torn line elsewhere is an error. */
export function readJsonl<T>(path: string): T[] {
  if (!existsSync(path)) return [];
  const lines = readFileSync(path, 'utf8').split('\n');
  const out: T[] = [];
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    try {
      out.push(JSON.parse(line) as T);
    } catch (err) {
      const isLast = lines.slice(i + 1).every((l) => l.trim() === '');
      if (!isLast) throw new Error(`${path}:${i + 1}: not a complete JSON line`, { cause: err });
    }
  });
  return out;
}
