import { describe, expect, it } from 'vitest';
import type { ResultRow } from '../../harness/core/index.ts';
import {
  createBaseline,
  evaluateGate,
  parseBaseline,
  renderBaseline,
  renderGateMarkdown,
} from '../../harness/gate/index.ts';
import { syntheticRows } from '../reports/synthetic.ts';
import { thresholds } from './thresholds.ts';

/**
 * Live and recorded cells are different experiments (issue 27 item 3): a live run against a recorded
 * baseline, or the reverse, compares nothing and cannot evaluate (exit 2), naming both modes — it is
 * never a "regression" (exit 1) or a pass.
 */
const recorded = syntheticRows({
  seed: 5,
  cases: 8,
  reps: 2,
  arms: ['inline', 'summary'],
  suite: 'ledgerline',
  criteria: ['correctness'],
});
/** The same cells run live: a lower score and more tokens, as a live source gives. */
const live = recorded.map((r): ResultRow => ({
  ...r,
  source_mode: 'live',
  handoff_tokens: r.handoff_tokens * 2,
  scores: { correctness: 1 },
}));

describe('the gate and the source mode', () => {
  it('a live run against a recorded baseline cannot evaluate, naming both modes', () => {
    const r = evaluateGate(live, createBaseline(recorded), thresholds);
    expect(r.verdict).toBe('cannot evaluate');
    expect(r.checks).toEqual([]);
    expect(r.mismatch).toEqual([
      'mode: run live vs baseline recorded (ledgerline/inline, ledgerline/summary)',
    ]);
    expect(renderGateMarkdown(r)).toContain('- mode: run live vs baseline recorded');
  });

  it('a recorded run against a live baseline likewise; the baseline keeps the mode through its file', () => {
    const b = parseBaseline(renderBaseline(createBaseline(live)), 'b.json');
    expect(b.suites[0]!.arms.map((a) => a.mode)).toEqual(['live', 'live']);
    const r = evaluateGate(recorded, b, thresholds);
    expect(r.verdict).toBe('cannot evaluate');
    expect(r.mismatch).toEqual([
      'mode: run recorded vs baseline live (ledgerline/inline, ledgerline/summary)',
    ]);
    // Same mode on both sides: compared as ever.
    expect(evaluateGate(live, b, thresholds).verdict).toBe('pass');
  });

  it('one arm run live is named alone; an error row of a live cell (no mode column) does not hide it', () => {
    let first = true;
    const mixed = recorded.map((r): ResultRow => {
      if (r.arm !== 'summary') return r;
      if (first) {
        first = false;
        return { ...r, status: 'error', error: 'x', error_code: 'internal' };
      }
      return { ...r, source_mode: 'live' };
    });
    const r = evaluateGate(mixed, createBaseline(recorded), thresholds);
    expect(r.mismatch).toEqual(['mode: run live vs baseline recorded (ledgerline/summary)']);
  });

  it('a recorded baseline file carries no mode field (reads as before); a bad mode is refused', () => {
    expect(renderBaseline(createBaseline(recorded))).not.toContain('"mode"');
    const bad = JSON.parse(renderBaseline(createBaseline(recorded)));
    bad.suites[0].arms[0].mode = 5;
    expect(() => parseBaseline(JSON.stringify(bad), 'b.json')).toThrow(/b\.json: .*mode/);
  });
});
