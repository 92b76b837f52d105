import { closeSync, constants, openSync, readSync, statSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { ImportError } from '../core/errors.ts';
import { providePiped } from './source.ts';

/** How long a pipe may stay silent, and how much it may hold, before the read gives up. */
export interface PipeLimits {
  idleMs: number;
  maxBytes: number;
}

const defaults: PipeLimits = { idleMs: 30_000, maxBytes: 512 * 1024 * 1024 };

/**
 * Reads a pipe or FIFO given as the input (`import <(cat f)`, `mkfifo`) once, so detection and the
 * importer both see its content (a pipe cannot be read twice). Opened non-blocking: a FIFO with no
 * writer reads as end-of-file at once instead of hanging in open(); between reads the event loop runs,
 * so Ctrl-C / SIGTERM are honoured; a writer silent for `idleMs`, or more than `maxBytes`, is an
 * ImportError. Regular files, directories and missing paths are left to the importers.
 */
export async function readPipe(file: string, limits: Partial<PipeLimits> = {}): Promise<void> {
  const { idleMs, maxBytes } = { ...defaults, ...limits };
  let special: boolean;
  try {
    const st = statSync(file);
    special = st.isFIFO() || st.isCharacterDevice() || st.isSocket();
  } catch {
    return;
  }
  if (!special) return;
  const fd = openFd(file);
  const chunks: Buffer[] = [];
  let total = 0;
  let idleSince = Date.now();
  try {
    for (;;) {
      const buf = Buffer.allocUnsafe(64 * 1024);
      const n = readOnce(fd, buf);
      if (n === 0) break;
      if (n === undefined) {
        if (Date.now() - idleSince > idleMs)
          throw new ImportError(file, undefined, `a pipe with no data for ${idleMs / 1000} s; gave up`);
        await sleep(20);
        continue;
      }
      chunks.push(buf.subarray(0, n));
      total += n;
      idleSince = Date.now();
      if (total > maxBytes)
        throw new ImportError(file, undefined, `a pipe or device longer than ${maxBytes} bytes; gave up`);
    }
  } finally {
    closeSync(fd);
  }
  if (total === 0)
    throw new ImportError(
      file,
      undefined,
      'a FIFO or pipe with nothing to read (no writer, or it wrote nothing)',
    );
  providePiped(file, Buffer.concat(chunks));
}

function openFd(file: string): number {
  try {
    return openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    throw new ImportError(file, undefined, `cannot open: ${(err as Error).message}`, { cause: err });
  }
}

/** Bytes read; 0 at end of file; undefined when the writer has not written yet. */
function readOnce(fd: number, buf: Buffer): number | undefined {
  try {
    return readSync(fd, buf, 0, buf.length, null);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EAGAIN') return undefined;
    throw err;
  }
}
