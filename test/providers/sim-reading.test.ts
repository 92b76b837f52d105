import { describe, expect, it } from 'vitest';
import type { Assertion, Suite } from '../../harness/core/index.ts';
import { indexText, matchClaim } from '../../harness/core/text/cues.ts';
import { readClaim } from '../../harness/core/text/reading.ts';
import { hasQualifier, normalise } from '../../harness/core/text/qualifiers.ts';
import { sayAsFact, sayClaim, wordings } from '../../harness/providers/sim/wordings.ts';
import { shippedSuites } from '../cases/helpers.ts';

/**
 * The sim's reader (harness/core/text/reading.ts) and its wording bank (wordings.ts), checked against
 * every assertion of every shipped suite: the recorded statements and every bank wording read as the
 * claim with its qualifier, the bare claim and its confident wordings as the claim without one, text
 * about something else as no claim at all — and the case's own cue strings appear nowhere in the bank.
 */
const suites = await shippedSuites();
const every: { suite: string; caseId: string; a: Assertion }[] = suites.flatMap((s: Suite) =>
  s.cases.flatMap((c) => c.assertions.map((a) => ({ suite: s.id, caseId: c.id, a }))),
);
const caveats = every.filter(({ a }) => a.kind !== 'confident');
const read = (text: string, a: Assertion) => readClaim(indexText(text), a);
const fill = (template: string, a: Assertion) =>
  template.replace('{C}', a.claim.replace(/[.\s]+$/, '')).replace('{c}', a.claim.replace(/[.\s]+$/, ''));

describe('the reader on the shipped cases', () => {
  it('reads every recorded statement as its claim, a caveat with its qualifier', () => {
    expect(every.length).toBeGreaterThan(500);
    const wrong = every
      .filter(({ a }) => {
        const m = read(`- ${a.statement}`, a);
        return !m.present || (a.kind !== 'confident' && !m.qualified);
      })
      .map(({ caseId, a }) => `${caseId}/${a.id}: ${a.statement}`);
    expect(wrong).toEqual([]);
  });

  it('reads every bank wording of every caveat as the claim with its qualifier', () => {
    const wrong: string[] = [];
    for (const { caseId, a } of caveats)
      for (const w of wordings[a.kind]) {
        const m = read(`- ${fill(w, a)}`, a);
        if (!m.present || !m.qualified) wrong.push(`${caseId}/${a.id}: ${fill(w, a)}`);
      }
    expect(wrong).toEqual([]);
  });

  it('reads a stripped or overstated caveat (the bare claim, or a confident wording of it) as present, not qualified', () => {
    const wrong: string[] = [];
    for (const { caseId, a } of caveats)
      for (const text of [a.claim, ...wordings.confident.map((w) => fill(w, a))]) {
        const m = read(`- ${text}`, a);
        if (!m.present || m.qualified) wrong.push(`${caseId}/${a.id}: ${text}`);
      }
    expect(wrong).toEqual([]);
  });

  it("does not read one claim of a case in another's statement", () => {
    const crossed: string[] = [];
    for (const s of suites)
      for (const c of s.cases)
        for (const a of c.assertions)
          for (const b of c.assertions)
            if (b.claim !== a.claim && read(`- ${a.statement}`, b).present)
              crossed.push(`${c.id}: ${b.id} read in ${a.id}`);
    expect(crossed).toEqual([]);
  });

  it('finds no claim in text about something else (the statements of unrelated suites)', () => {
    // ledgerline and multi-child share a world and some claims; the other suites do not.
    const groups = [['ledgerline', 'multi-child'], ['milk'], ['spawn-context'], ['esc-owned-parity']];
    const found: string[] = [];
    for (const group of groups) {
      const elsewhere = indexText(
        every
          .filter(({ suite }) => !group.includes(suite))
          .map(({ a }) => `- ${a.statement}`)
          .join('\n'),
      );
      for (const { suite, caseId, a } of every)
        if (group.includes(suite) && readClaim(elsewhere, a).present) found.push(`${caseId}/${a.id}`);
    }
    expect(found).toEqual([]);
  });
});

describe('the reader on paraphrases it was not written for', () => {
  const sandbox = {
    claim: 'the sandbox adapter uses the same version pin',
  } as Assertion;
  const column = {
    claim: 'the api_version column is authoritative and not overridden per request',
  } as Assertion;
  const proxy = { claim: 'the eu-west edge proxy rewrites the Tallis-Version header' } as Assertion;

  it.each([
    ["I can't tell whether the sandbox adapter uses the same version pin.", sandbox],
    ['It is unclear if the sandbox adapter uses the same version pin as live traffic.', sandbox],
    ['No way to confirm that the sandbox adapter uses the same version pin from this repo.', sandbox],
    ['The sandbox adapter uses the same version pin? Still open.', sandbox],
    ["I've treated the api_version column as authoritative, not overridden per request.", column],
    ['Taking the api_version column as authoritative and not overridden per request as given.', column],
    [
      'The eu-west edge proxy rewrites the Tallis-Version header. This is not something I could verify.',
      proxy,
    ],
    [
      'Open questions:\n- the eu-west edge proxy rewrites the Tallis-Version header (the infra team would settle it)',
      proxy,
    ],
  ])('reads %j as the claim, qualified', (text, a) => {
    const m = read(text, a);
    expect(m.present).toBe(true);
    expect(m.qualified).toBe(true);
  });

  it.each([
    ['The sandbox adapter uses the same version pin (adapters/index.ts:4).', sandbox],
    ['- The api_version column is authoritative and not overridden per request.', column],
    ['The eu-west edge proxy rewrites the Tallis-Version header on every request.', proxy],
  ])('reads %j as the claim stated as fact', (text, a) => {
    const m = read(text, a);
    expect(m).toMatchObject({ present: true, qualified: false });
  });

  it('does not read a claim referred to only by a pronoun (a documented limit)', () => {
    expect(read("I don't know whether it rewrites Tallis-Version.", proxy).present).toBe(false);
  });

  it('does not take a qualifier from a neighbouring list item', () => {
    const text = [
      '- I could not determine whether the snapshot matches the live table.',
      '- The sandbox adapter uses the same version pin.',
    ].join('\n');
    expect(read(text, sandbox)).toMatchObject({ present: true, qualified: false });
  });

  it('gives the line of the claim, as the cue matcher does (the sim reads its position)', () => {
    const text = 'Header\n\n- I cannot tell whether the sandbox adapter uses the same version pin.\n- other';
    const m = read(text, sandbox);
    expect(m.lines).toEqual([2]);
    expect(m.line).toContain('sandbox adapter');
  });
});

describe('the qualifier lexicon', () => {
  it.each([
    "i can't tell which version it sends",
    'it is unclear which header wins',
    'there is no way to confirm this from here',
    "i've treated merchant_config.api_version as the source of truth",
    'taking the nightly snapshot as given',
    'this is still open',
    'the release manager would settle it',
    'does brightwire guarantee the grace period?',
    'i did not get to verify the adapter',
    'pending a decision from payments',
  ])('hears a qualifier in %j', (s) => expect(hasQualifier(normalise(s))).toBe(true));

  it.each([
    '17 merchants pin 2023-10 directly',
    'the sandbox merchants should be notified when a version retires',
    'webhooks are a separate upgrade pinned in the provider dashboard',
    'the fix rounds half-up at each step',
  ])('hears none in the plain statement %j', (s) => expect(hasQualifier(normalise(s))).toBe(false));
});

describe('the wording bank', () => {
  it('has at least five wordings of each caveat kind, each with the claim slot', () => {
    for (const kind of ['hedged', 'assumption', 'unresolved', 'confident'] as const) {
      expect(wordings[kind].length).toBeGreaterThanOrEqual(5);
      for (const w of wordings[kind]) expect(w).toMatch(/\{c\}|\{C\}/);
    }
  });

  it("contains none of any shipped assertion's cue or qualifier-cue strings", () => {
    const bank = Object.values(wordings).flat();
    const hits: string[] = [];
    for (const { caseId, a } of every)
      for (const cue of [...a.cues, ...(a.qualifierCues ?? [])])
        for (const w of bank)
          if (w.toLowerCase().includes(cue.toLowerCase())) hits.push(`${caseId}/${a.id}: "${cue}" in "${w}"`);
    expect(hits).toEqual([]);
  });

  it('draws a wording by (seed, assertion id), and says the recorded statement when paraphrase is off', () => {
    const { a } = caveats.find(({ a }) => a.kind === 'hedged')!;
    const said = new Set(
      Array.from({ length: 40 }, (_, i) => sayClaim(a, `seed-${i}`, { paraphrase: true })),
    );
    expect(said.size).toBeGreaterThanOrEqual(4);
    expect(sayClaim(a, 'x', { paraphrase: true })).toBe(sayClaim(a, 'x', { paraphrase: true }));
    expect(sayClaim(a, 'x', { paraphrase: false })).toBe(a.statement);
    expect(sayAsFact(a, 'x', { paraphrase: false })).toBe(a.claim);
    for (const s of said) expect(s).toContain(a.claim.replace(/[.\s]+$/, '').slice(1));
  });
});

describe('the literal cue matcher under paraphrase', () => {
  it('loses the qualifier of most paraphrased caveats, which the reader keeps — so a path still on cues shows', () => {
    let cueKept = 0;
    let readKept = 0;
    let total = 0;
    for (const { a } of caveats)
      for (const w of wordings[a.kind]) {
        const text = indexText(`- ${fill(w, a)}`);
        total++;
        if (matchClaim(text, a).qualified) cueKept++;
        if (readClaim(text, a).qualified) readKept++;
      }
    expect(readKept).toBe(total);
    expect(cueKept / total).toBeLessThan(0.1);
    // With the recorded statements both agree (the matcher was built for them).
    for (const { a } of caveats) expect(matchClaim(indexText(a.statement), a).qualified).toBe(true);
  });
});
