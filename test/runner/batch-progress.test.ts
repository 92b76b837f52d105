import { describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import { batchLine, createProgressReporter } from '../../harness/runner/reporters.ts';

describe('batch progress', () => {
  it("prints each batch's state and counts once per change", () => {
    const stream = new PassThrough() as unknown as NodeJS.WriteStream;
    let out = '';
    (stream as unknown as PassThrough).on('data', (d) => (out += String(d)));
    const r = createProgressReporter(stream, true);
    const e = {
      provider: 'openai',
      batchId: 'batch_1',
      state: 'in_progress',
      total: 40,
      succeeded: 0,
      failed: 0,
      processing: 40,
    };
    r.onBatch!(e);
    r.onBatch!(e);
    r.onBatch!({ ...e, state: 'completed', succeeded: 38, failed: 2, processing: 0 });
    (stream as unknown as PassThrough).end();
    expect(out.trim().split('\n')).toEqual([
      'batch openai batch_1: in_progress · 0/40 done (0 succeeded, 0 failed)',
      'batch openai batch_1: completed · 40/40 done (38 succeeded, 2 failed)',
    ]);
    expect(batchLine({ provider: 'anthropic', batchId: '(local b2)', state: 'not confirmed' })).toBe(
      'batch anthropic (local b2): not confirmed',
    );
  });
});
