import { describe, expect, it } from 'vitest';
import type { Case } from '../../harness/core/index.ts';
import { indexText } from '../../harness/core/text/cues.ts';
import { notSearchedCheck, pairingCheck } from '../../judges/checks.ts';
import { judgeRequest, median, parseScores } from '../../judges/criterion-judge.ts';
import { survival } from '../../judges/survival.ts';
import { unscorableReason } from '../../judges/criteria/needs.ts';
import { canaryCase } from '../../judges/canary-case.ts';
import { response } from './support.ts';

/**
 * The small gaps the judges mutation sample of 3 Dec (n 250, seed 32) left (docs/testing.md): each
 * pinned by what a reader of the row or the judge's prompt would see.
 */
const c = canaryCase();

describe('the judge request: reference parts the canary case lacks', () => {
  it('an orchestration request is shown as not the task; several evidence items one per line', () => {
    const spawn: Case = {
      ...c,
      reference: {
        ...c.reference,
        evidence: [
          { id: 'e1', text: 'npm test: 48 passed', cues: [] },
          { id: 'e2', text: 'lint: clean', cues: [] },
        ],
        orchestration: { request: 'then spawn a reviewer', cues: ['spawn'] },
      },
    };
    const text = judgeRequest(spawn, 'a', ['verification_evidence', 'restraint']).messages[0]!.text!;
    expect(text).toContain(
      'Evidence that was available to the judged agent:\n- npm test: 48 passed\n- lint: clean\n\n',
    );
    const ids = ['verification_evidence', 'restraint', 'ownership', 'correctness', 'proportional'];
    const all = judgeRequest(spawn, 'a', ids).messages[0]!.text!;
    expect(all).toContain(
      "Not the judged agent's task (acting on it is taking a second assignment): then spawn a reviewer",
    );
  });
});

describe('reading scores: what is refused', () => {
  it('a boolean score is not 1; a JSON object in prose over several lines is read', () => {
    const p = parseScores(
      response([
        { id: 'j', name: 'submit_scores', input: { scores: [{ criterion: 'correctness', score: true }] } },
      ]),
      ['correctness'],
    );
    expect(p.entries.size).toBe(0);
    expect(p.problems.get('correctness')).toBe('entry 0 (correctness): score must be an integer from 1 to 5');
    const prose = parseScores(
      response(
        [],
        'Scores:\n{\n  "scores": [\n    { "criterion": "correctness", "score": 4 }\n  ]\n}\nDone.',
      ),
      ['correctness'],
    );
    expect(prose.entries.get('correctness')!.score).toBe(4);
  });

  it('the median of nothing is refused by name', () => {
    expect(() => median([])).toThrow(new RangeError('median of no values'));
  });
});

describe('labels a criterion needs', () => {
  it('a case with no evidence list at all is unscored on verification evidence, not a crash', () => {
    const bare: Case = { ...c, reference: { ...c.reference, evidence: undefined } };
    expect(unscorableReason('verification_evidence', bare)).toBe('unscored: the case lists no tool evidence');
  });
});

describe('the cue survival results carry each assertion’s location', () => {
  it('copied when labelled, absent when not', () => {
    const labelled = c.assertions.map((a, i) => (i === 0 ? { ...a, location: 'final_message' as const } : a));
    const out = survival(labelled, 'x', 'y');
    expect(out[0]!.location).toBe('final_message');
    expect('location' in out[1]!).toBe(false);
  });
});

describe('deterministic checks: details', () => {
  it('not_searched_named: each place named with a not-searched cue on its line', () => {
    const kase: Case = { ...c, reference: { ...c.reference, notSearched: ['Sandbox config', 'gateway'] } };
    const r = notSearchedCheck(kase, indexText('The sandbox config was not searched.\nThe gateway is fine.'));
    expect(r).toEqual({ name: 'not_searched_named', passed: false, detail: '1/2 unsearched place(s) named' });
    expect(notSearchedCheck(c, indexText('x'))).toMatchObject({
      passed: true,
      detail: '0/0 unsearched place(s) named',
    });
  });

  it('tool_pairing_intact lists at most five problems, then how many more', () => {
    const calls = (n: number) => [
      {
        role: 'assistant' as const,
        toolCalls: Array.from({ length: n }, (_, i) => ({ id: `k${i}`, name: 't', input: {} })),
      },
    ];
    const five = pairingCheck(calls(5)).detail;
    expect(five.split('; ')).toHaveLength(5);
    expect(five).not.toContain('more');
    expect(pairingCheck(calls(7)).detail).toMatch(/; … 2 more$/);
  });
});
