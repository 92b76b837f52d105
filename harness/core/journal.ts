import {
  closeSync,
  existsSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  openSync,
  readFileSync,
  readSync,
  writeSync,
} from 'node:fs';

export interface JournalOptions {
  /** Runs before each flush (e.g. flush calls.jsonl first, so every journalled cell has its calls on disk). */
  beforeFlush?: () => void;
}

/**
 * An append-only JSONL journal. Lines are buffered and written whole (one write per flush, never a
 * sync write per line on the hot path), so a crash or Ctrl-C leaves only complete lines behind; a torn
 * last line (power loss, a kill in the middle of a write) is cut off by `repairJsonl` before appending.
 */
export class Journal<T> {
  private fd: number;
  private buffer: string[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    readonly path: string,
    private readonly flushEvery = 64,
    private readonly flushMs = 200,
    private readonly options: JournalOptions = {},
  ) {
    repairJsonl(path);
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
    this.options.beforeFlush?.();
    const lines = this.buffer;
    this.buffer = [];
    // Encoded straight into one buffer rather than joined into one string first: a joined flush of
    // 64 rows is a few hundred KB, which V8 places in the old generation as garbage (raising max RSS).
    let bytes = 0;
    for (const line of lines) bytes += Buffer.byteLength(line);
    const chunk = Buffer.allocUnsafe(bytes);
    let at = 0;
    for (const line of lines) at += chunk.write(line, at);
    writeSync(this.fd, chunk);
  }

  close(): void {
    this.flush();
    fsyncSync(this.fd);
    closeSync(this.fd);
  }
}

/**
 * Cuts a torn trailing line (no final newline) off a journal, so the next append starts on a line of
 * its own instead of gluing onto the fragment. Returns the number of bytes removed.
 */
export function repairJsonl(path: string): number {
  if (!existsSync(path)) return 0;
  const fd = openSync(path, 'r+');
  try {
    const size = fstatSync(fd).size;
    if (size === 0) return 0;
    // Scan back from the end for the last newline, a block at a time.
    const block = Buffer.alloc(64 * 1024);
    let end = size;
    while (end > 0) {
      const start = Math.max(0, end - block.length);
      const n = readSync(fd, block, 0, end - start, start);
      const i = block.subarray(0, n).lastIndexOf(0x0a);
      if (i >= 0) {
        const keep = start + i + 1;
        if (keep < size) ftruncateSync(fd, keep);
        return size - keep;
      }
      end = start;
    }
    ftruncateSync(fd, 0);
    return size;
  } finally {
    closeSync(fd);
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
