import { describe, expect, it } from 'vitest';
import type { ModelRequestInput, ModelResponse, Transcript } from '../../harness/core/index.ts';
import { createSimProvider } from '../../harness/providers/sim/index.ts';
import { classifyStage, parseMarks } from '../../judges/survival-llm.ts';
import { readEachSource } from '../../judges/source-claims-each.ts';
import { quoteFound } from '../../judges/quotes.ts';
import { canaryCase } from '../../judges/canary-case.ts';
import { response } from './support.ts';

/**
 * A classifier's mark is a reading only when its quote is in the text it read (issue 29: "no live child
 * with zero tool calls is credited with a claim" — a judge model that says "kept" for words the text
 * does not hold, or the sim's classifier misreading an absent claim, must not credit it).
 */
const c = canaryCase();
const text = 'Two merchants pin 2023-10 (m_0007, m_0013).\nThe sandbox adapter uses the same version pin.';
const classify = (marks: { assertion_id: string; mark: string; quote?: string }[]): ModelResponse =>
  response([{ id: 't', name: 'classify_survival', input: { marks } }]);
const allAbsentBut = (m: Record<string, [string, string]>) =>
  c.assertions.map((a) => ({
    assertion_id: a.id,
    mark: m[a.id]?.[0] ?? 'absent',
    quote: m[a.id]?.[1] ?? '',
  }));

describe('a mark must quote the text it reads', () => {
  it('kept or overstated with a quote not in the text reads absent and is listed; absent needs no quote', () => {
    const p = parseMarks(
      classify(
        allAbsentBut({ a1: ['kept', 'Two merchants pin 2023-10'], a2: ['kept', 'Three merchants pin'] }),
      ),
      c.assertions,
      text,
    );
    expect(p.problems).toEqual([]);
    expect(p.marks.get('a1')).toBe('kept');
    expect(p.marks.get('a2')).toBe('absent');
    expect(p.unquoted).toEqual(['a2']);
  });

  it('an empty or missing quote is no evidence; without the text (no check asked) the mark stands', () => {
    const res = classify([
      { assertion_id: 'a1', mark: 'kept', quote: '' },
      { assertion_id: 'a2', mark: 'overstated' },
      { assertion_id: 'a3', mark: 'absent' },
    ]);
    const checked = parseMarks(res, c.assertions, text);
    expect([...checked.marks.values()]).toEqual(['absent', 'absent', 'absent']);
    expect(checked.unquoted).toEqual(['a1', 'a2']);
    const unchecked = parseMarks(res, c.assertions);
    expect(unchecked.marks.get('a1')).toBe('kept');
    expect(unchecked.unquoted).toEqual([]);
  });

  it('the retry is told which quotes were not found; a quote given then counts', async () => {
    const asked: ModelRequestInput[] = [];
    const replies = [
      classify(allAbsentBut({ a1: ['kept', 'merchants pin 2024-01'] })),
      classify(allAbsentBut({ a1: ['kept', '“two merchants pin 2023-10”'] })),
    ];
    const call = async (r: ModelRequestInput) => (asked.push(r), replies.shift()!);
    const out = await classifyStage(call, c.id, c.assertions, c.reference, 'answer', text);
    expect(asked).toHaveLength(2);
    const told = asked[1]!.messages.at(-1)!.toolResults![0]!.content;
    expect(told).toContain('a1: the quote is not in the text (quote it verbatim, or mark it absent)');
    expect(out.marks!.get('a1')).toBe('kept');
    expect(out.unquoted).toEqual([]);
  });

  it('still unquoted after the retry: absent and listed; a retry that fails outright leaves the first marks', async () => {
    const unquotedTwice = [
      classify(allAbsentBut({ a1: ['kept', 'not there'], a3: ['kept', 'The sandbox adapter'] })),
      classify(allAbsentBut({ a1: ['kept', 'still not there'], a3: ['kept', 'The sandbox adapter'] })),
    ];
    const a = await classifyStage(
      async () => unquotedTwice.shift()!,
      c.id,
      c.assertions,
      c.reference,
      'answer',
      text,
    );
    expect(a.marks!.get('a1')).toBe('absent');
    expect(a.marks!.get('a3')).toBe('kept');
    expect(a.unquoted).toEqual(['a1']);
    const thenBroken = [classify(allAbsentBut({ a1: ['kept', 'not there'] })), response([])];
    const b = await classifyStage(
      async () => thenBroken.shift()!,
      c.id,
      c.assertions,
      c.reference,
      'answer',
      text,
    );
    expect(b.error).toBeUndefined();
    expect(b.marks!.get('a1')).toBe('absent');
    expect(b.unquoted).toEqual(['a1']);
  });

  it('quoteFound: an elision must keep its parts in order', () => {
    expect(quoteFound('Two merchants … same version pin', text)).toBe(true);
    expect(quoteFound('same version pin … Two merchants', text)).toBe(false);
    expect(quoteFound('...', text)).toBe(false);
  });

  it('quoteFound: a typographic apostrophe reads as a straight one, not as nothing', () => {
    expect(quoteFound('don’t pin', "They don't pin it.")).toBe(true);
    expect(quoteFound('dont pin', "They don't pin it.")).toBe(false);
  });
});

describe('a live source that made no claim is credited with none, whatever the classifier misreads', () => {
  const idle: Transcript = {
    agents: {},
    messages: [
      { role: 'user', text: 'Find which merchants pin the old API version.' },
      { role: 'assistant', text: 'I did not get to look at anything, so I have nothing to report.' },
    ],
  };
  const working: Transcript = {
    agents: {},
    messages: [
      { role: 'user', text: 'Find which merchants pin the old API version.' },
      { role: 'assistant', text: text },
    ],
  };

  it.each([0.03, 0.5, 1])(
    'sim classifier misreading at %s: the idle child is credited with nothing',
    async (rate) => {
      const sim = createSimProvider({ judge: { malformed: 0, classifyMisread: rate } });
      let n = 0;
      for (let seed = 0; seed < 40; seed++) {
        const call = async (r: ModelRequestInput) =>
          sim.generate({ ...r, model: 'sim-judge', seed: `u${seed}#${n++}` });
        const each = await readEachSource(call, c, [idle, working]);
        expect(each.credited[0], `seed ${seed}`).toEqual([]);
      }
    },
  );
});

describe('several sources: the unquoted marks of each, by section, each id once', () => {
  it("the case's survival_unquoted is the union of every source's, in source order", async () => {
    const say = (t: string): Transcript => ({
      agents: {},
      messages: [
        { role: 'user', text: 'brief' },
        { role: 'assistant', text: t },
      ],
    });
    // Marks a1 present (with a quote the text lacks) where the text says ONE, a2 where it says TWO.
    const call = async (r: ModelRequestInput) => {
      const user = r.messages[0]!.text!;
      const inside = /<<<UNTRUSTED-[0-9a-f]+>>>\n([\s\S]*?)\n<<<END-/.exec(user)?.[1] ?? '';
      const present = (id: string, word: string) =>
        inside.includes(word) ? ['kept', 'not in it'] : undefined;
      return classify(
        allAbsentBut(
          Object.fromEntries(
            [
              ['a1', present('a1', 'ONE')],
              ['a2', present('a2', 'TWO')],
            ].filter(([, v]) => v) as [string, [string, string]][],
          ),
        ),
      );
    };
    const each = await readEachSource(call, c, [say('ONE'), say('TWO'), say('TWO again')]);
    expect(each.reading.unquoted).toEqual({ final_message: ['a1', 'a2'] });
    expect(each.credited).toEqual([[], [], []]);
  });
});
