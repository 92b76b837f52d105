import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { TextIndex, lineWithAll, matchClaim } from '../../harness/core/text/cues.ts';

// The matcher reads only the lines where the first cue occurs (indexOf over the text); it must find
// exactly what testing every line finds: the first qualified line holding all cues, else the first such line.
function naiveMatch(text: string, cues: string[], qualifierCues: string[]) {
  const lines = text.toLowerCase().split('\n');
  const lc = cues.map((c) => c.toLowerCase());
  const lq = qualifierCues.map((q) => q.toLowerCase());
  let first: { line: string; qualified: boolean } | undefined;
  if (lc.length === 0) return undefined;
  for (let i = 0; i < lines.length; i++) {
    if (!lc.every((c) => lines[i]!.includes(c))) continue;
    const qualified = lq.some((q) => lines[i]!.includes(q) || (i > 0 && lines[i - 1]!.includes(q)));
    if (qualified) return { line: lines[i]!, qualified };
    first ??= { line: lines[i]!, qualified };
  }
  return first;
}

const word = fc.constantFrom(
  'fallback',
  'Pinned',
  '2023-10',
  'm_0007',
  'assumed',
  'not verified',
  'a',
  'ab',
  'b',
  '',
  ' ',
  '\n',
  '\n\n',
  'ASSUMPTION:',
  'x\ny',
);

describe('claim matching', () => {
  it('finds what testing every line finds', () => {
    const text = fc.array(word, { maxLength: 30 }).map((w) => w.join(' '));
    const cues = fc.array(word, { minLength: 0, maxLength: 3 });
    fc.assert(
      fc.property(text, cues, cues, (t, c, q) => {
        const m = matchClaim(new TextIndex(t), { cues: c, qualifierCues: q });
        const want = naiveMatch(t, c, q);
        if (!want) return !m.present;
        return (
          m.present &&
          m.line === want.line &&
          m.qualified === want.qualified &&
          lineWithAll(new TextIndex(t), c) === naiveMatch(t, c, [])?.line
        );
      }),
      { numRuns: 3000, seed: 5 },
    );
  });

  it('handles a cue at the very end and an empty cue without looping', () => {
    expect(matchClaim(new TextIndex('one\ntwo fallback'), { cues: ['FALLBACK'] }).line).toBe('two fallback');
    expect(matchClaim(new TextIndex('one\ntwo'), { cues: [''] }).line).toBe('one');
  });
});
