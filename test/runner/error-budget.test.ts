import { describe, expect, it } from 'vitest';
import type { ResultRow } from '../../harness/core/index.ts';
import { errorBudget } from '../../harness/runner/error-budget.ts';
import { syntheticRows } from '../reports/synthetic.ts';

/**
 * The error budget in-process (issue 32 item 2): the figures behind a run's exit 3, which the CLI
 * tests (exit-codes.test.ts) only see through a second process.
 */
const ok = syntheticRows({ seed: 1, cases: 5, reps: 2, arms: ['a'] }).map((r): ResultRow => ({
  ...r,
  status: 'ok',
  error: null,
  error_code: null,
}));
const failed = (r: ResultRow, code: ResultRow['error_code'], error: string): ResultRow => ({
  ...r,
  status: 'error',
  error_code: code,
  error,
});

describe('errorBudget', () => {
  it('no rows: rate 0, not over, no reasons', () => {
    expect(errorBudget([], 0.02)).toEqual({
      cells: 0,
      errors: 0,
      truncated: 0,
      rate: 0,
      limit: 0.02,
      over: false,
      top: [],
    });
  });

  it('counts error rows over cells; over only when the rate exceeds the limit (equal is not over)', () => {
    const rows = [failed(ok[0]!, 'tool_error', 'timed out'), ...ok.slice(1)];
    const b = errorBudget(rows, 0.1);
    expect(b).toMatchObject({ cells: 10, errors: 1, truncated: 0, rate: 0.1, limit: 0.1, over: false });
    expect(errorBudget(rows, 0.09).over).toBe(true);
    expect(errorBudget(ok, 0).over).toBe(false);
  });

  it('groups reasons by code and message without request ids, most frequent first, ties by reason', () => {
    const rows = [
      failed(ok[0]!, 'source_failed', 'HTTP 500 from x; request req_1'),
      failed(ok[1]!, 'source_failed', 'HTTP 500 from x; request req_2'),
      failed(ok[2]!, 'source_failed', 'HTTP 500 from x; request req_3'),
      failed(ok[3]!, 'tool_error', 'b: timed out'),
      failed(ok[4]!, 'tool_error', 'a: timed out'),
      failed(ok[5]!, null, 'no code'),
      failed(ok[6]!, 'tool_error', 'b: timed out'),
      { ...ok[7]!, status: 'error', error_code: null, error: null } as ResultRow,
    ];
    const b = errorBudget(rows, 0.5);
    expect(b.errors).toBe(8);
    expect(b.over).toBe(true);
    expect(b.top).toEqual([
      { code: 'source_failed', reason: 'HTTP 500 from x', count: 3 },
      { code: 'tool_error', reason: 'b: timed out', count: 2 },
      { code: 'unknown', reason: '', count: 1 },
    ]);
    expect(errorBudget(rows, 0.5, 5).top.slice(3)).toEqual([
      { code: 'tool_error', reason: 'a: timed out', count: 1 },
      { code: 'unknown', reason: 'no code', count: 1 },
    ]);
    expect(errorBudget(rows, 0.5, 1).top).toHaveLength(1);
  });

  it('cuts a reason at 200 characters', () => {
    const long = 'x'.repeat(250);
    const b = errorBudget([failed(ok[0]!, 'tool_error', long)], 1);
    expect(b.top[0]!.reason).toBe('x'.repeat(200));
  });

  it('an ok row cut at max_tokens counts unless its arm allows truncation; an error row cut counts once, by its code', () => {
    const cut = { ...ok[0]!, truncated: ['receiver', 'judge'] } as ResultRow;
    const allowed = { ...ok[1]!, truncated: ['source'], truncation_allowed: true } as ResultRow;
    const emptyCut = { ...ok[2]!, truncated: [] } as ResultRow;
    const errCut = { ...failed(ok[3]!, 'tool_error', 't'), truncated: ['source'] } as ResultRow;
    const b = errorBudget([cut, allowed, emptyCut, errCut, ...ok.slice(4)], 0.5);
    expect(b).toMatchObject({ cells: 10, errors: 2, truncated: 1, rate: 0.2, over: false });
    expect(b.top).toEqual([
      {
        code: 'max_tokens',
        reason:
          'answer cut at max_tokens (receiver, judge); scored, but the arm does not allow truncation (allowTruncation)',
        count: 1,
      },
      { code: 'tool_error', reason: 't', count: 1 },
    ]);
  });
});
