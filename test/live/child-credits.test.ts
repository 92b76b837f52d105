import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { ResultRow } from '../../harness/core/index.ts';
import { resolveConfig } from '../../harness/config/resolve-config.ts';
import { runExperiment } from '../../harness/runner/run.ts';
import { loadSuites } from '../../cases/load.ts';
import { repoRoot } from '../support/cli.ts';
import { tempDir } from '../support/mock-run.ts';

/**
 * Issue 29 item 4: each live child's artifact records the labelled claims it was credited with
 * (`assertions`), read by the classifier from that child's own transcript — a child with no tool call
 * is credited with nothing, a child is credited only with claims whose places it looked at, and never
 * with another child's. The sim's classifier misreads nothing here (classifyMisread 0), so what is
 * tested is what each sim child stated.
 */
interface ChildArtifact {
  toolCalls: number;
  assertions: string[];
  calls: { name: string; input: string; isError: boolean }[];
}

async function multiChildLive(judge: { classifyMisread: number }): Promise<ResultRow[]> {
  const config = resolveConfig(
    {
      suites: [{ id: 'multi-child', arms: ['final-messages'] }],
      casesDir: join(repoRoot, 'cases'),
      reps: 1,
      cache: false,
      outDir: tempDir('child-credits'),
      sim: { judge },
    },
    { mode: 'live', quiet: true },
  );
  const { rows } = await runExperiment({ config });
  expect(rows.length).toBeGreaterThan(0);
  expect(rows.every((r) => r.status === 'ok')).toBe(true);
  return rows;
}

const childrenOf = (r: ResultRow) => (r.detail?.artifacts as unknown as { live: ChildArtifact[] }).live;

describe("each live child's credited claims", () => {
  it('records per child the claims its own transcript made: none without a tool call, their union the case', async () => {
    const rows = await multiChildLive({ classifyMisread: 0 });
    const [suite] = await loadSuites(join(repoRoot, 'cases'), [{ id: 'multi-child' }]);
    let idle = 0;
    let credited = 0;
    let snapshotCredits = 0;
    for (const r of rows) {
      const c = suite!.cases.find((x) => x.id === r.case_id)!;
      const children = childrenOf(r);
      expect(children).toHaveLength(c.sources!.length);
      const made = (r.detail as { source_claims: { assertionId: string; location: string }[] }).source_claims
        .filter((x) => x.location !== 'not_made')
        .map((x) => x.assertionId);
      expect(new Set(children.flatMap((x) => x.assertions))).toEqual(new Set(made));
      for (const child of children) {
        if (child.toolCalls === 0) {
          idle++;
          expect(child.assertions).toEqual([]);
          continue;
        }
        credited += child.assertions.length;
        // A claim with provenance is credited only to a child that looked at one of its places.
        const looked = child.calls.filter((x) => !x.isError).map((x) => x.input);
        for (const id of child.assertions) {
          const files = (c.assertions.find((a) => a.id === id)!.provenance ?? [])
            .map((p) => p.replace(/:\d+$/, ''))
            .filter((p) => p.includes('/'));
          if (files.length === 0) continue;
          const sawAny = files.some(
            (f) => looked.some((i) => i.includes(f)) || child.calls.some((x) => x.name === 'search_code'),
          );
          expect(sawAny, `${r.case_id} ${id}`).toBe(true);
        }
        // A claim whose provenance is a table's column (the adapters child's stale count from
        // merchant_config_snapshot) only to a child that queried that table.
        for (const id of child.assertions)
          for (const p of c.assertions.find((a) => a.id === id)!.provenance ?? []) {
            const table = /^(\w+)\.\w+$/.exec(p)?.[1];
            if (!table || !c.world?.tables?.[table]) continue;
            const queried = child.calls.some(
              (x) =>
                x.name === 'query' && !x.isError && new RegExp(`\\bFROM\\s+"?${table}\\b`, 'i').test(x.input),
            );
            expect(queried, `${r.case_id} ${id}: ${p}`).toBe(true);
            if (table === 'merchant_config_snapshot') snapshotCredits++;
          }
      }
    }
    // The test means something: credited claims occur. Since the subject rule (act-leads.ts B6) every
    // sim child of these cases researches, so no child here is idle; a child with no call stating
    // nothing is tested in sim-act.test.ts ('with no tool call that returned a result…', and a brief
    // with neither names nor risk words making no call).
    expect(idle).toBe(0);
    expect(credited).toBeGreaterThan(0);
    // The snapshot is in the world and the adapters child's brief describes it (act-leads.ts B7).
    expect(snapshotCredits).toBeGreaterThan(0);
  });
});
