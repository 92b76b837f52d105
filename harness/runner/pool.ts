import type { PlannedCell } from './plan.ts';
import { isFatal, type ProviderError } from '../core/errors.ts';

/** Cells start for at most this long between two event-loop turns (cells already running finish first). */
const YIELD_EVERY_MS = 4;

/**
 * `concurrency` workers pull cells in plan order: no promise per queued cell, so a 300k-cell plan
 * starts at once and stops at once on Ctrl-C, and no queue bookkeeping per cell on the hot path. The
 * first fatal provider error stops scheduling (cells already in flight finish) and is returned; any
 * other exception from a cell (a harness bug — executeCell turns cell failures into rows) is thrown.
 */
export async function runPool(
  todo: readonly PlannedCell[],
  concurrency: number,
  signal: AbortSignal | undefined,
  run: (cell: PlannedCell) => Promise<void>,
): Promise<ProviderError | undefined> {
  let next = 0;
  let failed = false;
  let stoppedBy: ProviderError | undefined;
  const turnOwed = createTurnYield(YIELD_EVERY_MS);
  const worker = async () => {
    while (next < todo.length && !failed && !stoppedBy) {
      const turn = turnOwed();
      if (turn) await turn;
      if (signal?.aborted || stoppedBy) return;
      const cell = todo[next++];
      if (!cell) return;
      try {
        await run(cell);
      } catch (err) {
        if (signal?.aborted) return;
        if (isFatal(err)) {
          stoppedBy ??= err;
          return;
        }
        failed = true;
        throw err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, todo.length) }, worker));
  return stoppedBy;
}

/**
 * Between cells the runner makes sure the event loop turns at least every few ms: a CPU-bound provider
 * (the sim) would otherwise run the whole plan as one microtask chain, starving signal handling (Ctrl-C),
 * timers and progress output. A heartbeat (one setImmediate at a time) notes each turn the loop takes on
 * its own — with a network provider it turns all the time, and no cell ever waits. Only when no turn has
 * happened for `everyMs` do the workers wait, all for the same turn (one waiting alone would leave the
 * others' chains running). Returns the turn to await, or undefined when none is owed.
 */
function createTurnYield(everyMs: number): () => Promise<void> | undefined {
  let last = Date.now();
  let beating = false;
  let owed: Promise<void> | undefined;
  const beat = () => {
    beating = false;
    last = Date.now();
  };
  return () => {
    if (owed) return owed;
    if (Date.now() - last < everyMs) {
      if (!beating) {
        beating = true;
        setImmediate(beat);
      }
      return undefined;
    }
    owed = new Promise((resolve) =>
      setImmediate(() => {
        owed = undefined;
        last = Date.now();
        resolve();
      }),
    );
    return owed;
  };
}
