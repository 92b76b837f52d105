import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../harness/core/errors.ts';
import { runPool } from '../../harness/runner/pool.ts';
import type { PlannedCell } from '../../harness/runner/plan.ts';

/**
 * The runner's worker pool in process (issue 32 item 2): before this it was reached only by whole
 * runs, where a pool that started cells out of order, ran too many at once or kept going after a fatal
 * error still finished with plausible rows.
 */
const cells = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `c${i}` }) as PlannedCell);
const fatal = () => new ProviderError('openai', 'key rejected', 401, undefined, { fatal: true });
const tick = () => new Promise((r) => setImmediate(r));

describe('runPool', () => {
  it('starts cells in plan order, never more than `concurrency` at once, each exactly once', async () => {
    const started: string[] = [];
    let running = 0;
    let most = 0;
    const stopped = await runPool(cells(10), 3, undefined, async (c) => {
      started.push(c.id);
      most = Math.max(most, ++running);
      await tick();
      running--;
    });
    expect(stopped).toBeUndefined();
    expect(started).toEqual(cells(10).map((c) => c.id));
    expect(most).toBe(3);
  });

  it('runs no worker for an empty plan and no more workers than cells', async () => {
    let calls = 0;
    expect(await runPool([], 4, undefined, async () => void calls++)).toBeUndefined();
    expect(calls).toBe(0);
    let running = 0;
    let most = 0;
    await runPool(cells(2), 8, undefined, async () => {
      most = Math.max(most, ++running);
      await tick();
      running--;
    });
    expect(most).toBe(2);
  });

  it('a fatal provider error stops scheduling, lets cells in flight finish, and is returned (the first one)', async () => {
    const first = fatal();
    const second = fatal();
    const finished: string[] = [];
    const stopped = await runPool(cells(10), 2, undefined, async (c) => {
      await tick();
      if (c.id === 'c2') throw first;
      if (c.id === 'c3') {
        await tick();
        throw second;
      }
      finished.push(c.id);
    });
    expect(stopped).toBe(first);
    // c0, c1 finished; c2 and c3 failed; nothing after them started.
    expect(finished).toEqual(['c0', 'c1']);
  });

  it('a fatal error in the last cell is still returned', async () => {
    const err = fatal();
    const stopped = await runPool(cells(1), 1, undefined, async () => {
      throw err;
    });
    expect(stopped).toBe(err);
  });

  it('any other exception (a harness bug) is thrown, and no further cell starts', async () => {
    const started: string[] = [];
    const bug = new Error('bug');
    await expect(
      runPool(cells(6), 1, undefined, async (c) => {
        started.push(c.id);
        if (c.id === 'c1') throw bug;
      }),
    ).rejects.toBe(bug);
    expect(started).toEqual(['c0', 'c1']);
    // With other workers running: once one has thrown, none of them starts another cell.
    const seen: string[] = [];
    await expect(
      runPool(cells(10), 2, undefined, async (c) => {
        seen.push(c.id);
        await tick();
        if (c.id === 'c0') throw bug;
        await tick();
      }),
    ).rejects.toBe(bug);
    for (let i = 0; i < 10; i++) await tick();
    expect(seen).toEqual(['c0', 'c1']);
    // A non-fatal ProviderError is a bug too (executeCell turns provider failures into rows).
    const notFatal = new ProviderError('openai', 'boom', 500);
    await expect(
      runPool(cells(2), 1, undefined, async () => {
        throw notFatal;
      }),
    ).rejects.toBe(notFatal);
  });

  it('an aborted signal starts no cell; aborting mid-run starts no more and swallows the aborted cell', async () => {
    const aborted = new AbortController();
    aborted.abort();
    let calls = 0;
    expect(await runPool(cells(3), 2, aborted.signal, async () => void calls++)).toBeUndefined();
    expect(calls).toBe(0);

    const ctl = new AbortController();
    const started: string[] = [];
    const stopped = await runPool(cells(8), 1, ctl.signal, async (c) => {
      started.push(c.id);
      if (c.id === 'c2') {
        ctl.abort();
        throw new Error('aborted mid-call');
      }
    });
    expect(stopped).toBeUndefined();
    expect(started).toEqual(['c0', 'c1', 'c2']);
  });

  it('lets the event loop turn during a CPU-bound plan (a timer fires before the plan ends)', async () => {
    let timerFired = false;
    let cellsBeforeTimer = -1;
    let done = 0;
    setTimeout(() => {
      timerFired = true;
      cellsBeforeTimer = done;
    }, 0);
    const busy = (ms: number) => {
      const until = Date.now() + ms;
      while (Date.now() < until);
    };
    await runPool(cells(40), 2, undefined, async () => {
      busy(1);
      done++;
    });
    expect(timerFired).toBe(true);
    expect(cellsBeforeTimer).toBeLessThan(40);
    expect(done).toBe(40);
  });
});
