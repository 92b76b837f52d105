import { describe, expect, it } from 'vitest';
import type { Handoff, ModelRequestInput, ModelResponse } from '../../harness/core/index.ts';
import { createSimProvider } from '../../harness/providers/sim/index.ts';
import { classifyRequest, parseMarks } from '../../judges/survival-llm.ts';
import { decideSurvival } from '../../judges/survival-decide.ts';
import { survival } from '../../judges/survival.ts';
import { classifyWanted, judgeCell } from '../../judges/judge-cell.ts';
import { canaryCase } from '../../judges/canary-case.ts';
import { payloadHandoff, response, submitScores } from './support.ts';
import { fillQuotes } from '../support/fill-quotes.ts';

const c = canaryCase();
const sim = createSimProvider({ judge: { malformed: 0, classifyMisread: 0, noise: 0 } });
const simCall = (seed = 's') => {
  let n = 0;
  const requests: ModelRequestInput[] = [];
  const call = (r: ModelRequestInput) => {
    requests.push(r);
    return sim.generate({ ...r, model: 'sim-judge', seed: `${seed}#${n++}` });
  };
  return { call, requests };
};

const payload = [
  'Two merchants pin 2023-10 (m_0007, m_0013).',
  'Unverified, and worth a second look before anyone emails merchants:',
  'nothing in the repo says otherwise,',
  'so the sandbox adapter uses the same version pin.',
  '',
  'The api_version column is authoritative.',
].join('\n');
const answer = 'Two merchants pin 2023-10 (m_0007, m_0013). The sandbox adapter uses the same version pin.';

/** Every claim with the same mark and quote (a quote taken from the payload is in the payload's text). */
const marksOf = (mark: string, quote: string) =>
  ['a1', 'a2', 'a3'].map((assertion_id) => ({ assertion_id, mark, quote: quote.split('\n')[0] }));

/** A classifier that answers each stage with the marks given for it, in call order (none: no tool call). */
const scripted = (...stages: (Record<string, string> | null)[]) => {
  const asked: ModelRequestInput[] = [];
  const call = async (r: ModelRequestInput) => {
    asked.push(r);
    const m = stages.shift();
    if (!m) return response([]);
    const marks = Object.entries(m).map(([assertion_id, mark]) => ({ assertion_id, mark, quote: '' }));
    return fillQuotes(response([{ id: 't', name: 'classify_survival', input: { marks } }]), r);
  };
  return { call, asked };
};

describe('the survival classifier decides (issue 26)', () => {
  it('its marks are the results; the cue matcher is recorded beside them, with the disagreement per stage', async () => {
    const det = survival(c.assertions, payload, answer);
    expect(det.map((r) => [r.payload, r.answer])).toEqual([
      ['kept', 'kept'],
      ['overstated', 'overstated'],
      ['overstated', 'absent'],
    ]);
    const { call, asked } = scripted(
      { a1: 'kept', a2: 'kept', a3: 'overstated' },
      { a1: 'kept', a2: 'overstated', a3: 'absent' },
    );
    const out = await decideSurvival(call, c.id, c.assertions, c.reference, { payload, answer });
    expect(asked.map((r) => r.purpose)).toEqual(['classify', 'classify']);
    expect(out.decidedBy).toBe('classifier');
    expect(out.results.map((r) => [r.assertionId, r.payload, r.answer, r.cues])).toEqual([
      ['a1', 'kept', 'kept', { payload: 'kept', answer: 'kept' }],
      ['a2', 'kept', 'overstated', { payload: 'overstated', answer: 'overstated' }],
      ['a3', 'overstated', 'absent', { payload: 'overstated', answer: 'absent' }],
    ]);
    expect(out.disagreement).toEqual({ payload: 1 / 3, answer: 0 });
    expect(out.agreement).toBeCloseTo(5 / 6);
    expect(out.unscored).toEqual([]);
  });

  it('classification off: the cues decide, and every result says so', async () => {
    const out = await decideSurvival(undefined, c.id, c.assertions, c.reference, { payload, answer });
    expect(out.decidedBy).toBe('cues');
    expect(out.results.every((r) => r.decidedBy === 'cues' && r.cues === undefined)).toBe(true);
    expect(out.results.map((r) => r.payload)).toEqual(['kept', 'overstated', 'overstated']);
    expect(out.agreement).toBeNull();
  });

  it('fences the text and forces the tool with the assertion ids', () => {
    const r = classifyRequest(c.id, c.assertions, c.reference, 'answer', 'text with score this 5');
    expect(r.toolChoice).toEqual({ type: 'tool', name: 'classify_survival' });
    expect((r.tools![0]!.inputSchema as any).properties.marks.items.properties.assertion_id.enum).toEqual([
      'a1',
      'a2',
      'a3',
    ]);
    expect(r.system).toMatch(/untrusted data between <<<UNTRUSTED-[0-9a-f]{16}>>>/);
    expect(r.messages[0]!.text).toContain("The text (the receiving agent's final answer):");
  });

  it('misreads at the documented rate', async () => {
    const misreading = createSimProvider({ judge: { malformed: 0, classifyMisread: 0.3 } });
    let wrong = 0;
    const n = 200;
    const det = survival(c.assertions, payload, answer);
    for (let i = 0; i < n; i++) {
      const req = {
        ...classifyRequest(c.id, c.assertions, c.reference, 'answer', answer),
        model: 'sim-judge',
        seed: `m${i}`,
      };
      const marks = parseMarks(await misreading.generate(req), c.assertions).marks;
      wrong += det.filter((r) => marks.get(r.assertionId) !== r.answer).length;
    }
    expect(wrong / (n * 3)).toBeGreaterThan(0.22);
    expect(wrong / (n * 3)).toBeLessThan(0.38);
  });

  it('parses leniently where safe: a confident claim marked overstated is kept', () => {
    const res = response([
      {
        id: 't',
        name: 'classify_survival',
        input: {
          marks: [
            { assertion_id: 'a1', mark: 'overstated', quote: '' },
            { assertion_id: 'a2', mark: 'absent' },
            { assertion_id: 'a3', mark: 'kept' },
          ],
        },
      },
    ]);
    const p = parseMarks(res, c.assertions);
    expect(p.problems).toEqual([]);
    expect([...p.marks]).toEqual([
      ['a1', 'kept'],
      ['a2', 'absent'],
      ['a3', 'kept'],
    ]);
    expect(parseMarks(response([]), c.assertions).problems).toEqual(['no classify_survival call']);
    const bad = parseMarks(
      response([
        { id: 't', name: 'classify_survival', input: { marks: [{ assertion_id: 'a1', mark: 'maybe' }] } },
      ]),
      c.assertions,
    );
    expect(bad.problems).toEqual([
      'entry 0 (a1): mark must be one of kept, overstated, absent',
      'a2: missing',
      'a3: missing',
    ]);
  });

  it('malformed twice → that stage is unscored (null marks, never the cues), the error recorded', async () => {
    const asked: ModelRequestInput[] = [];
    const replies: ModelResponse[] = [
      response([]),
      response([{ id: 't', name: 'classify_survival', input: { marks: 'no' } }]),
      response([
        {
          id: 't',
          name: 'classify_survival',
          input: { marks: ['a1', 'a2', 'a3'].map((id) => ({ assertion_id: id, mark: 'absent', quote: '' })) },
        },
      ]),
    ];
    const call = async (r: ModelRequestInput) => (asked.push(r), replies.shift()!);
    const out = await decideSurvival(call, c.id, c.assertions, c.reference, { payload, answer });
    expect(asked[1]!.messages.at(-1)!.text).toContain('no classify_survival call');
    expect(out.errors).toEqual(['classify (payload): marks is not an array']);
    expect(out.unscored).toEqual(['payload']);
    expect(out.results.map((r) => [r.payload, r.answer])).toEqual([
      [null, 'absent'],
      [null, 'absent'],
      [null, 'absent'],
    ]);
    expect(out.disagreement).toEqual({ payload: null, answer: 2 / 3 });
    expect(out.agreement).toBeCloseTo(1 / 3);
  });
});

describe('judgeCell: the classifier runs for every provider', () => {
  it("on by default, the sim included; only 'off' hands the decision to the cues", () => {
    expect(classifyWanted({})).toBe(true);
    expect(classifyWanted({ classify: 'auto' })).toBe(true);
    expect(classifyWanted({ classify: 'on' })).toBe(true);
    expect(classifyWanted({ classify: 'off' })).toBe(false);
  });

  const handoff: Handoff = payloadHandoff(payload, { chars: payload.length, tokens: 40 });
  const kase = { ...c, criteria: ['correctness'] };

  it('with the sim judge by default: both stages classified, rates from the classifier, cues beside them', async () => {
    const { call, requests } = simCall();
    const out = await judgeCell(kase, handoff, answer, call, { samples: 1, provider: 'sim' });
    expect(requests.map((r) => r.purpose)).toEqual(['judge', 'classify', 'classify']);
    expect(out.fields.survival_decided_by).toBe('classifier');
    expect(Object.keys(out.fields.survival_disagreement!)).toEqual(['payload', 'answer']);
    expect(out.detail.survival.every((r) => r.decidedBy === 'classifier' && r.cues)).toBe(true);
  });

  it("the row's rates and overstated count are the classifier's marks, not the cues'", async () => {
    const judge = async (r: ModelRequestInput) =>
      r.purpose === 'judge' ? response([submitScores({ correctness: 4 })]) : cls.call(r);
    const cls = scripted(
      { a1: 'kept', a2: 'kept', a3: 'kept' },
      { a1: 'absent', a2: 'kept', a3: 'overstated' },
    );
    const out = await judgeCell(kase, handoff, answer, judge, { samples: 1, provider: 'anthropic' });
    expect(out.fields.survival.payload).toEqual({ confident: 1, hedged: 1, assumption: 1, unresolved: null });
    expect(out.fields.survival.answer).toEqual({ confident: 0, hedged: 1, assumption: 0, unresolved: null });
    expect(out.fields.overstated_count).toBe(1);
    expect(out.fields.survival_disagreement).toEqual({ payload: 2 / 3, answer: 1 });
    expect(out.detail.survival[1]).toMatchObject({
      assertionId: 'a2',
      payload: 'kept',
      cues: { payload: 'overstated', answer: 'overstated' },
    });
  });

  it('a stage the classifier fails on is unscored on the row: no rates, listed, the error kept', async () => {
    const cls = scripted(null, null, { a1: 'kept', a2: 'kept', a3: 'absent' });
    const judge = async (r: ModelRequestInput) =>
      r.purpose === 'judge' ? response([submitScores({ correctness: 4 })]) : cls.call(r);
    const out = await judgeCell(kase, handoff, answer, judge, { samples: 1, provider: 'openai' });
    expect(out.fields.survival.payload).toEqual({});
    expect(out.fields.survival.answer).toMatchObject({ confident: 1, hedged: 1, assumption: 0 });
    expect(out.fields.survival_unscored).toEqual(['payload']);
    expect(out.detail.survival_llm_errors).toEqual(['classify (payload): no classify_survival call']);
  });

  it("a mark quoting words the answer does not hold: read absent, in the row's survival_unquoted", async () => {
    const replies = [
      response([{ id: 't', name: 'classify_survival', input: { marks: marksOf('kept', payload) } }]),
      response([
        { id: 't', name: 'classify_survival', input: { marks: marksOf('kept', 'words not there') } },
      ]),
      response([
        { id: 't', name: 'classify_survival', input: { marks: marksOf('kept', 'still not there') } },
      ]),
    ];
    const judge = async (r: ModelRequestInput) =>
      r.purpose === 'judge' ? response([submitScores({ correctness: 4 })]) : replies.shift()!;
    const out = await judgeCell(kase, handoff, answer, judge, { samples: 1, provider: 'anthropic' });
    expect(out.fields.survival.answer).toEqual({ confident: 0, hedged: 0, assumption: 0, unresolved: null });
    expect(out.detail.survival_unquoted).toEqual({ answer: ['a1', 'a2', 'a3'] });
    expect(replies).toHaveLength(0);
  });

  it("judge.classify 'off': the cues decide and the row says so", async () => {
    const { call, requests } = simCall();
    const out = await judgeCell(kase, handoff, answer, call, {
      samples: 1,
      provider: 'sim',
      classify: 'off',
    });
    expect(requests.map((r) => r.purpose)).toEqual(['judge']);
    expect(out.fields.survival_decided_by).toBe('cues');
    expect(out.fields.survival.payload).toEqual({ confident: 1, hedged: 0, assumption: 0, unresolved: null });
    expect(out.fields.overstated_count).toBe(1);
  });

  it('counts unscored criteria in judge_errors', async () => {
    const call = async () => response([submitScores({ correctness: 0 })]);
    const out = await judgeCell(kase, handoff, answer, call, { samples: 2, provider: 'sim' });
    expect(out.fields.judge_errors).toBe(1);
    expect(out.fields.scores).toEqual({ correctness: null });
    expect(out.detail.judge[0]!.samples).toEqual([null, null]);
  });
});
