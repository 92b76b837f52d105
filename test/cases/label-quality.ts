import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Assertion, AssertionKind, Transcript } from '../../harness/core/index.ts';
import { assertionKinds } from '../../harness/core/index.ts';
import { proposeLabels } from '../../cases/propose-labels.ts';
import { loadSuites } from '../../cases/load.ts';

const casesRoot = fileURLToPath(new URL('../../cases/', import.meta.url));

/** The shipped hand-labelled cases: every cases/<suite>/cases/*.json. */
export function shippedCases(): { file: string; sources: Transcript[]; labels: Assertion[] }[] {
  const out = [];
  for (const suite of readdirSync(casesRoot, { withFileTypes: true })) {
    if (!suite.isDirectory()) continue;
    let files: string[] = [];
    try {
      files = readdirSync(join(casesRoot, suite.name, 'cases')).filter((f) => f.endsWith('.json'));
    } catch {
      continue;
    }
    for (const f of files) {
      const c = JSON.parse(readFileSync(join(casesRoot, suite.name, 'cases', f), 'utf8'));
      out.push({ file: `${suite.name}/${f}`, sources: c.sources ?? [c.source], labels: c.assertions });
    }
  }
  return out;
}

const words = (s: string): Set<string> => new Set(s.toLowerCase().match(/[a-z0-9_]{3,}/g) ?? []);

/** A proposal matches a hand label of the same kind when one statement contains the other, or their words overlap ≥ 60%. */
export function sameStatement(a: string, b: string): boolean {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  if (x.includes(y) || y.includes(x)) return true;
  const wa = words(a);
  const wb = words(b);
  const common = [...wa].filter((w) => wb.has(w)).length;
  return common / Math.min(wa.size, wb.size) >= 0.6;
}

export interface KindQuality {
  proposed: number;
  labelled: number;
  /** Proposals that match a hand label of the kind. */
  truePositives: number;
  /** Hand labels found by some proposal of the kind. */
  found: number;
  precision: number | null;
  recall: number | null;
}

/** The generated suites' cases (every loaded case not read from a real session's file). */
export async function generatedCases(): Promise<
  { sources: readonly Transcript[]; labels: readonly Assertion[] }[]
> {
  const suites = await loadSuites(casesRoot, 'all');
  return suites.flatMap((s) =>
    s.cases
      .filter((c) => !c.id.startsWith('real-'))
      .map((c) => ({ sources: c.sources ?? [c.source], labels: c.assertions })),
  );
}

export function measure(
  cases: readonly { sources: readonly Transcript[]; labels: readonly Assertion[] }[] = shippedCases(),
): Record<AssertionKind, KindQuality> {
  const q = Object.fromEntries(
    assertionKinds.map((k) => [
      k,
      { proposed: 0, labelled: 0, truePositives: 0, found: 0, precision: null, recall: null },
    ]),
  ) as Record<AssertionKind, KindQuality>;
  for (const c of cases) {
    const proposals = proposeLabels(c.sources);
    for (const k of assertionKinds) {
      const ps = proposals.filter((p) => p.kind === k);
      const ls = c.labels.filter((l) => l.kind === k);
      q[k].proposed += ps.length;
      q[k].labelled += ls.length;
      q[k].truePositives += ps.filter((p) => ls.some((l) => sameStatement(p.statement, l.statement))).length;
      q[k].found += ls.filter((l) => ps.some((p) => sameStatement(p.statement, l.statement))).length;
    }
  }
  for (const k of assertionKinds) {
    q[k].precision = q[k].proposed ? q[k].truePositives / q[k].proposed : null;
    q[k].recall = q[k].labelled ? q[k].found / q[k].labelled : null;
  }
  return q;
}
