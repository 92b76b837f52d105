import { describe, expect, it } from 'vitest';
import type { Case } from '../../harness/core/index.ts';
import { allOnLine, indexText, matchClaim } from '../../harness/core/text/cues.ts';
import { renderTranscript } from '../../strategies/render.ts';
import { caseWarnings } from '../../cases/case-warnings.ts';
import { isReal, renderedTexts, shippedSuites, sourcesOf, suite } from './helpers.ts';

const allCases = async (): Promise<Case[]> => (await shippedSuites()).flatMap((s) => s.cases);

describe('labels find their claims where the payload stage looks', () => {
  it("every assertion's cues occur on one line of its source transcript(s), qualified when it is not confident", async () => {
    for (const c of await allCases()) {
      const sources = sourcesOf(c).map((t) => indexText(renderTranscript(t)));
      for (const a of c.assertions) {
        const matches = sources.map((s) => matchClaim(s, a));
        expect(
          matches.some((m) => m.present),
          `${c.id}/${a.id}: cues not in the source`,
        ).toBe(true);
        if (a.kind !== 'confident')
          expect(
            matches.some((m) => m.qualified),
            `${c.id}/${a.id}: qualifier not next to the claim`,
          ).toBe(true);
      }
    }
  });

  it('a hedge, assumption or open question never appears unqualified anywhere a receiver could see it', async () => {
    for (const c of await allCases()) {
      for (const text of renderedTexts(c)) {
        const lines = text.toLowerCase().split('\n');
        for (const a of c.assertions.filter((x) => x.kind !== 'confident')) {
          const q = (a.qualifierCues ?? []).map((x) => x.toLowerCase());
          lines.forEach((line, i) => {
            if (!allOnLine(line, a.cues)) return;
            const qualified = q.some((x) => line.includes(x) || (i > 0 && lines[i - 1]!.includes(x)));
            expect(qualified, `${c.id}/${a.id} unqualified: ${line.slice(0, 120)}`).toBe(true);
          });
        }
      }
    }
  });

  it('every shipped case, the real-session ones included, is labelled for each criterion it is judged on (validate warns of nothing)', async () => {
    const cases = await allCases();
    expect(cases.filter(isReal).length).toBeGreaterThanOrEqual(5);
    for (const c of cases) {
      expect(c.assertions.length, `${c.id}: no assertions`).toBeGreaterThan(0);
      expect(caseWarnings(c), c.id).toEqual([]);
    }
  });

  it('real-session cases say where they came from, under which license, and who labelled them', async () => {
    const real = (await allCases()).filter(isReal);
    expect(real.length).toBeGreaterThanOrEqual(5);
    for (const c of real) {
      const p = (c as Case & { provenance?: Record<string, string> }).provenance;
      expect(p, c.id).toBeDefined();
      expect(p!.license).toBe('MIT');
      for (const key of ['source', 'repo', 'trimmed', 'labelledBy'])
        expect(p![key], `${c.id}: provenance.${key}`).toBeTruthy();
    }
  });
});

describe('milk: the evidence is in the tool output, where a 500-character cap loses it', () => {
  it('each evidence cue is in a tool result; the final test summary is among its last lines, past 500 characters', async () => {
    for (const c of (await suite('milk')).cases) {
      const results = c.source.messages.flatMap((m) => m.toolResults ?? []).map((r) => r.content);
      for (const e of c.reference.evidence ?? []) {
        const hit = results.find((r) =>
          indexText(r)
            .getLines()
            .some((l) => allOnLine(l, e.cues)),
        );
        expect(hit, `${c.id}/${e.id}`).toBeDefined();
        if (isReal(c) || e.id !== 'e-final') continue;
        const at = hit!.toLowerCase().indexOf(e.cues[0]!.toLowerCase());
        expect(at).toBeGreaterThan(500);
        expect(hit!.trimEnd().split('\n').slice(-3).join('\n').toLowerCase()).toContain(
          e.cues[0]!.toLowerCase(),
        );
      }
    }
  });

  it('the primary never restates an evidence cue in its own words (the evidence lives only in tool output)', async () => {
    for (const c of (await suite('milk')).cases.filter((x) => !isReal(x))) {
      const said = c.source.messages
        .filter((m) => m.role === 'assistant')
        .map((m) => m.text ?? '')
        .join('\n')
        .toLowerCase();
      for (const e of c.reference.evidence ?? [])
        for (const cue of e.cues) expect(said, `${c.id}/${e.id}`).not.toContain(cue.toLowerCase());
    }
  });
});

describe('spawn-context: the orchestration request and the spawn call', () => {
  it('the spawn call is in the source and still pending; the request is a user instruction in the parent, never in the task', async () => {
    for (const c of (await suite('spawn-context')).cases) {
      const calls = c.source.messages.flatMap((m) => m.toolCalls ?? []);
      const results = new Set(c.source.messages.flatMap((m) => m.toolResults ?? []).map((r) => r.callId));
      expect(
        calls.some((t) => t.id === c.spawnCallId),
        c.id,
      ).toBe(true);
      expect(results.has(c.spawnCallId!), c.id).toBe(false);
      const o = c.reference.orchestration!;
      const userText = c.source.messages
        .filter((m) => m.role === 'user' && m.text)
        .map((m) => m.text!)
        .join('\n');
      expect(
        indexText(userText)
          .getLines()
          .some((l) => allOnLine(l, o.cues)),
        c.id,
      ).toBe(true);
      expect(
        indexText(c.task)
          .getLines()
          .some((l) => allOnLine(l, o.cues)),
        c.id,
      ).toBe(false);
    }
  });

  it('some parents carry a compaction summary, and only there does the request live in it', async () => {
    const cases = (await suite('spawn-context')).cases;
    const compacted = cases.filter((c) => c.source.messages.some((m) => m.compacted));
    expect(compacted.length).toBeGreaterThanOrEqual(2);
    for (const c of compacted) {
      const summary = c.source.messages.find((m) => m.compacted)!;
      expect(
        indexText(summary.text!)
          .getLines()
          .some((l) => allOnLine(l, c.reference.orchestration!.cues)),
        c.id,
      ).toBe(true);
    }
  });
});

describe('esc-owned-parity: sessions owned from the first turn', () => {
  it('every assistant turn is the escalation agent, the shape is owned, and a proportional length is set', async () => {
    for (const c of (await suite('esc-owned-parity')).cases) {
      expect(c.sessionShape).toBe('owned');
      expect(c.reference.expectedWords).toBeGreaterThan(0);
      const roles = c.source.messages
        .filter((m) => m.role === 'assistant')
        .map((m) => c.source.agents[m.agent!]?.role);
      expect(new Set(roles)).toEqual(new Set(['escalation']));
      const userTurns = c.source.messages.filter((m) => m.role === 'user' && m.text).length;
      expect(userTurns, c.id).toBeGreaterThanOrEqual(2);
    }
  });
});
