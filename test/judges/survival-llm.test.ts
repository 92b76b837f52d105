import { describe, expect, it } from 'vitest';
import type { Handoff, ModelRequestInput, ModelResponse } from '../../harness/core/index.ts';
import { createSimProvider } from '../../harness/providers/sim/index.ts';
import { classifyRequest, classifySurvival, parseMarks } from '../../judges/survival-llm.ts';
import { survival } from '../../judges/survival.ts';
import { classifyWanted, judgeCell } from '../../judges/judge-cell.ts';
import { canaryCase } from '../../judges/canary-case.ts';
import { response, submitScores } from './support.ts';

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

describe('LLM survival classification (sim classify behaviour)', () => {
  it('marks every assertion at both stages and records agreement with the matcher', async () => {
    const det = survival(c.assertions, payload, answer);
    expect(det.map((r) => [r.payload, r.answer])).toEqual([
      ['kept', 'kept'],
      ['overstated', 'overstated'],
      ['overstated', 'absent'],
    ]);
    const { call, requests } = simCall();
    const out = await classifySurvival(call, c.id, c.assertions, c.reference, det, { payload, answer });
    expect(requests.map((r) => r.purpose)).toEqual(['classify', 'classify']);
    // The sim reads a qualifier anywhere in the paragraph (wider than the matcher's line-or-line-before):
    // it reads the hedge as kept in the payload, so the two disagree on exactly that mark.
    expect(out.results.map((r) => r.llm)).toEqual([
      { payload: 'kept', answer: 'kept' },
      { payload: 'kept', answer: 'overstated' },
      { payload: 'overstated', answer: 'absent' },
    ]);
    expect(out.agreement).toBeCloseTo(5 / 6);
    expect(out.errors).toEqual([]);
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

  it('malformed twice → that stage is unclassified (null marks), the error recorded, agreement from the other stage', async () => {
    const det = survival(c.assertions, payload, answer);
    const replies: ModelResponse[] = [
      response([]),
      response([{ id: 't', name: 'classify_survival', input: { marks: 'no' } }]),
      response([
        {
          id: 't',
          name: 'classify_survival',
          input: { marks: det.map((r) => ({ assertion_id: r.assertionId, mark: r.answer, quote: '' })) },
        },
      ]),
    ];
    const asked: ModelRequestInput[] = [];
    const call = async (r: ModelRequestInput) => (asked.push(r), replies.shift()!);
    const out = await classifySurvival(call, c.id, c.assertions, c.reference, det, { payload, answer });
    expect(asked[1]!.messages.at(-1)!.text).toContain('no classify_survival call');
    expect(out.errors).toEqual(['classify (payload): marks is not an array']);
    expect(out.results.every((r) => r.llm!.payload === null && r.llm!.answer === r.answer)).toBe(true);
    expect(out.agreement).toBe(1);
  });
});

describe('judgeCell: when the LLM classification runs', () => {
  it('auto: only with a real judge provider', () => {
    expect(classifyWanted({ provider: 'sim' })).toBe(false);
    expect(classifyWanted({})).toBe(false);
    expect(classifyWanted({ provider: 'anthropic' })).toBe(true);
    expect(classifyWanted({ provider: 'anthropic', classify: 'off' })).toBe(false);
    expect(classifyWanted({ provider: 'sim', classify: 'on' })).toBe(true);
  });

  const handoff: Handoff = {
    system: 'sys',
    messages: [{ role: 'user', text: payload }],
    tools: [],
    artifacts: {},
    payload,
    stats: {
      chars: payload.length,
      tokens: 40,
      markers: [],
      retained: 0,
      dropped: 0,
      manifest: 0,
      toolCallsVisible: 0,
      calls: 0,
      inputTokens: 0,
      outputTokens: 0,
      latencyMs: 0,
      retries: 0,
      costUsd: 0,
    },
  };
  const kase = { ...c, criteria: ['correctness'] };

  it('with the sim judge by default: no classify call, survival_agreement null', async () => {
    const { call, requests } = simCall();
    const out = await judgeCell(kase, handoff, answer, call, { samples: 1, provider: 'sim' });
    expect(requests.map((r) => r.purpose)).toEqual(['judge']);
    expect(out.fields.survival_agreement).toBeNull();
    expect(out.detail.survival.every((r) => r.llm === undefined)).toBe(true);
  });

  it("forced on (or a real provider): rows carry agreement, detail carries both readings; rates stay the matcher's", async () => {
    const { call, requests } = simCall();
    const out = await judgeCell(kase, handoff, answer, call, { samples: 1, provider: 'sim', classify: 'on' });
    expect(requests.map((r) => r.purpose)).toEqual(['judge', 'classify', 'classify']);
    expect(out.fields.survival_agreement).toBeCloseTo(5 / 6);
    expect(out.fields.survival.payload).toEqual({ confident: 1, hedged: 0, assumption: 0, unresolved: null });
    expect(out.fields.overstated_count).toBe(1);
    expect(out.detail.survival[1]).toMatchObject({
      assertionId: 'a2',
      payload: 'overstated',
      llm: { payload: 'kept' },
    });
  });

  it('counts unscored criteria in judge_errors', async () => {
    const call = async () => response([submitScores({ correctness: 0 })]);
    const out = await judgeCell(kase, handoff, answer, call, { samples: 2, provider: 'sim' });
    expect(out.fields.judge_errors).toBe(1);
    expect(out.fields.scores).toEqual({ correctness: null });
    expect(out.detail.judge[0]!.samples).toEqual([null, null]);
  });
});
