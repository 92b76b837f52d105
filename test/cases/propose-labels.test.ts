import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { indexText, matchClaim } from '../../harness/core/text/cues.ts';
import type { Transcript } from '../../harness/core/index.ts';
import { assertionKinds } from '../../harness/core/index.ts';
import { proposeLabels } from '../../cases/propose-labels.ts';
import { generatedCases, measure } from './label-quality.ts';

const session = (...texts: string[]): Transcript => ({
  agents: { main: { role: 'primary' } },
  messages: texts.map((text, i) => ({
    role: i % 2 ? 'assistant' : 'user',
    agent: 'main',
    text,
  })) as Transcript['messages'],
});

describe('the deterministic label proposer (issue 19)', () => {
  const t = session(
    'look into the cache',
    'I could not determine whether the cache key covers the base URL. Assuming the retry layer is the SDK one, the fix goes in calls.ts. The eviction policy is still an open question.',
    'and?',
    'The cache key now hashes the provider, the base URL and the model. Let me know if you want more.',
  );
  const proposals = proposeLabels([t]);

  it('proposes hedges, assumptions and open questions by the cue lexicon, confident claims from the final message', () => {
    expect(proposals.map((p) => [p.kind, p.location, p.status])).toEqual([
      ['hedged', 'mid_transcript', 'proposed'],
      ['assumption', 'mid_transcript', 'proposed'],
      ['unresolved', 'mid_transcript', 'proposed'],
      ['confident', 'final_message', 'proposed'],
    ]);
    expect(proposals[0]).toMatchObject({
      statement: 'I could not determine whether the cache key covers the base URL.',
      qualifierCues: ['could not determine'],
    });
    expect(proposals[0]!.claim).not.toMatch(/could not determine/);
  });

  it("every proposal's cues find its statement again, with its qualifier (what the survival checks need)", () => {
    const text = t.messages.map((m) => m.text).join('\n');
    for (const p of proposals) {
      const m = matchClaim(indexText(text), p);
      expect(m.present, p.statement).toBe(true);
      if (p.kind !== 'confident') expect(m.qualified, p.statement).toBe(true);
    }
  });

  it('"unlikely" is not "likely"; plans and questions are not confident claims', () => {
    expect(
      proposeLabels([session('x', 'That is unlikely to matter for the rest of the run here.')]),
    ).toHaveLength(1);
    expect(
      proposeLabels([
        session(
          'x',
          'Let me check the remaining files in the folder now. Is the cache shared across all runs?',
        ),
      ]),
    ).toEqual([]);
  });
});

describe('measured labeller quality on the shipped hand-labelled cases', () => {
  it('equals the table in docs/importers.md', () => {
    const q = measure();
    const doc = readFileSync(new URL('../../docs/importers.md', import.meta.url), 'utf8');
    // prettier pads table cells: compare with runs of spaces collapsed.
    const section = doc.slice(doc.indexOf('## Measured labeller quality')).replace(/ +/g, ' ');
    const pct = (x: number | null) => (x === null ? 'n/a' : `${Math.round(x * 100)}%`);
    for (const k of assertionKinds) {
      const row = `| ${k} | ${q[k].proposed} | ${q[k].labelled} | ${q[k].truePositives} | ${q[k].found} | ${pct(q[k].precision)} | ${pct(q[k].recall)} |`;
      expect(section, `docs row for ${k}`).toContain(row);
    }
    // Low, and said so: most confident proposals are sentences nobody labelled.
    expect(q.confident.precision).toBeLessThan(0.5);
  });

  it('and on the generated suites (written with the lexicon in mind), the second table', async () => {
    const cases = await generatedCases();
    const q = measure(cases);
    const doc = readFileSync(new URL('../../docs/importers.md', import.meta.url), 'utf8');
    const from = doc.indexOf('### On the generated suites');
    expect(from).toBeGreaterThan(0);
    const section = doc.slice(from).replace(/ +/g, ' ');
    expect(section).toContain(`(${cases.length} cases)`);
    const pct = (x: number | null) => (x === null ? 'n/a' : `${Math.round(x * 100)}%`);
    for (const k of assertionKinds) {
      const row = `| ${k} | ${q[k].proposed} | ${q[k].labelled} | ${q[k].truePositives} | ${q[k].found} | ${pct(q[k].precision)} | ${pct(q[k].recall)} |`;
      expect(section, `docs row for ${k}`).toContain(row);
    }
  });
});
