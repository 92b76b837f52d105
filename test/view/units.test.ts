import { describe, expect, it } from 'vitest';
import type { ResultRow } from '../../harness/core/index.ts';
import { claimMarks, stagesOf } from '../../harness/compare/marks.ts';
import { handAgreement, type HandLabels } from '../../harness/view/labels.ts';
import { cohenKappa } from '../../reports/stats/kappa.ts';
import { splitSeen } from '../../harness/view/pages/handed-over.ts';
import { highlight } from '../../harness/view/pages/highlight.ts';
import { naturalOrder } from '../../reports/html/natural-order.ts';
import { bounded } from '../../harness/runner/cell-views.ts';
import { syntheticRows } from '../reports/synthetic.ts';

const rowWith = (survival: unknown[]): ResultRow => {
  const r = syntheticRows({ seed: 1, cases: 1, reps: 1, arms: ['inline'] })[0]!;
  return { ...r, detail: { ...r.detail!, survival: survival as never } };
};

describe('survival marks read generically', () => {
  it('reads today’s shape: payload and answer, the llm opinion, the labelled location', () => {
    const [c] = claimMarks(
      rowWith([
        {
          assertionId: 'x',
          kind: 'hedged',
          location: 'final_message',
          payload: 'kept',
          answer: 'overstated',
          llm: { payload: 'kept', answer: null },
        },
      ]),
    );
    expect(c).toEqual({
      assertionId: 'x',
      kind: 'hedged',
      location: 'final_message',
      stages: { payload: 'kept', answer: 'overstated' },
      opinions: { 'llm.payload': 'kept', 'llm.answer': null },
      quotes: {},
    });
  });

  it('reads a newer shape: a third stage, a cue matcher’s first opinion, a measured location, quoted text', () => {
    const row = rowWith([
      {
        assertionId: 'y',
        kind: 'assumption',
        location: { labelled: 'mid_transcript', measured: 'final_message' },
        source: 'kept',
        payload: 'absent',
        answer: 'absent',
        cues: { source: 'kept', payload: 'kept', answer: 'absent' },
        evidence: { payload: 'the sandbox adapter pins', answer: ['x y z'] },
      },
    ]);
    const [c] = claimMarks(row);
    expect(c!.stages).toEqual({ source: 'kept', payload: 'absent', answer: 'absent' });
    expect(c!.opinions).toEqual({ 'cues.source': 'kept', 'cues.payload': 'kept', 'cues.answer': 'absent' });
    expect(c!.location).toBe('final_message');
    expect(c!.quotes).toEqual({ payload: ['the sandbox adapter pins'], answer: ['x y z'] });
    expect(stagesOf([row])).toEqual(['source', 'payload', 'answer']);
  });

  it('skips what is not a claim and reads an error row as none', () => {
    expect(claimMarks(rowWith([null, 3, { kind: 'hedged' }]))).toEqual([]);
    expect(claimMarks({ ...rowWith([]), detail: undefined })).toEqual([]);
  });
});

describe("Cohen's κ", () => {
  it('matches a hand-computed value and is undefined when both raters use one category', () => {
    // po = 0.7, pe = 0.5·0.6 + 0.5·0.4 = 0.5 → κ = 0.4
    const pairs: [string, string][] = [
      ...Array(4).fill(['kept', 'kept']),
      ...Array(1).fill(['kept', 'absent']),
      ...Array(2).fill(['absent', 'kept']),
      ...Array(3).fill(['absent', 'absent']),
    ];
    const k = cohenKappa(pairs);
    expect(k.n).toBe(10);
    expect(k.agree).toBe(7);
    expect(k.kappa).toBeCloseTo(0.4, 10);
    expect(cohenKappa([['kept', 'kept']]).kappa).toBeNull();
    expect(cohenKappa([]).n).toBe(0);
  });

  it('pairs each hand mark with the deciding mark and each other opinion of its stage', () => {
    const row = rowWith([
      {
        assertionId: 'a',
        kind: 'hedged',
        payload: 'kept',
        answer: 'absent',
        llm: { payload: 'kept', answer: 'kept' },
      },
    ]);
    const labels: HandLabels = {
      marks: new Map([
        [
          'm1',
          { type: 'mark', at: '', cell_id: row.cell_id, assertion_id: 'a', stage: 'answer', mark: 'kept' },
        ],
        ['m2', { type: 'mark', at: '', cell_id: 'gone', assertion_id: 'a', stage: 'answer', mark: 'kept' }],
      ]),
      reviews: new Map(),
    };
    const out = handAgreement([row], labels);
    expect(out).toEqual([
      { stage: 'answer', against: 'decision', n: 1, agree: 0, kappa: expect.anything() },
      { stage: 'answer', against: 'llm', n: 1, agree: 1, kappa: null },
    ]);
  });
});

describe('the handed-over part', () => {
  const history = '[user]\nfind the pin\n\n[assistant]\nlooking';
  it('splits exactly after the case’s history, the history first in the row', () => {
    const seen = `${history}\n\n[tool result t1]\nthe payload`;
    expect(splitSeen(seen, history, [])).toEqual({
      history,
      handed: '[tool result t1]\nthe payload',
      how: 'exact',
    });
  });

  it('finds the split in the tail of a bounded view when the history is longer than the head', () => {
    const longHistory = `${history}\n${'h'.repeat(30_000)}`;
    const full = `${longHistory}\n\n[tool result t1]\nthe payload ${'p'.repeat(3000)}`;
    const seen = bounded(full);
    expect(seen).toContain('characters omitted');
    const parts = splitSeen(seen, longHistory, []);
    expect(parts.how).toBe('exact');
    expect(parts.handed.startsWith('[tool result t1]\nthe payload')).toBe(true);
  });

  it('estimates from the other arms without the case, and says it cannot without them', () => {
    const mine = `${history}\n\n[assistant]\nsummary: pins`;
    const other = `${history}\n\n[tool result t9]\nfull transcript`;
    const parts = splitSeen(mine, null, [mine, other]);
    expect(parts.how).toBe('estimated');
    expect(parts.handed).toBe('[assistant]\nsummary: pins');
    expect(splitSeen(mine, null, [mine]).how).toBe('none');
  });
});

describe('highlight and order', () => {
  it('marks a line holding every cue (any case), anchors the first, escapes the rest', () => {
    const { body, found } = highlight(
      'a <b>Sandbox</b> PIN here\nnothing',
      [{ id: 'sp', cues: ['sandbox', 'pin'], quotes: [] }],
      'answer',
    );
    expect(found).toEqual(new Set(['sp']));
    expect(body.value).toBe(
      '<span id="hl-answer-sp"></span><mark class="hl" title="sp">a &lt;b&gt;Sandbox&lt;/b&gt; PIN here</mark>\nnothing\n',
    );
  });

  it('sorts [n=1] before [n=2] before [n=10], the baseline first', () => {
    expect(naturalOrder(['s[n=10]', 's[n=1]', 'inline', 's[n=2]'], 'inline')).toEqual([
      'inline',
      's[n=1]',
      's[n=2]',
      's[n=10]',
    ]);
  });
});
