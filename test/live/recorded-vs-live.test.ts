import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { ToolCall } from '../../harness/core/index.ts';
import { loadSuites } from '../../cases/load.ts';
import { allTrailItems } from '../../harness/core/transcript/view.ts';
import { materializeWorld } from '../../harness/live/world.ts';
import { diskAccess } from '../../harness/live/access.ts';
import { createWorldTools } from '../../harness/live/tools.ts';
import { repoRoot } from '../support/cli.ts';

/**
 * Every tool result a shipped recording shows is what the live tools return over the same case's
 * materialised world (issue: "the same text the recorded transcripts show today comes from the same
 * world"). Recordings keep their own argument names; the only mapping is the documented one:
 * `search_code {pattern}` is the live `search_code {query}`, `query_table` is the live `query`.
 * No recorded call is skipped: the multi-child adapters child's nightly snapshot is a table of the
 * world too (merchant_config_snapshot).
 */
function asLive(call: ToolCall): { name: string; input: Record<string, unknown> } {
  const input = { ...(call.input as Record<string, unknown>) };
  if (call.name === 'search_code' && 'pattern' in input) {
    input.query = input.pattern;
    delete input.pattern;
  }
  return { name: call.name === 'query_table' ? 'query' : call.name, input };
}

async function compare(casesDir: string, suite: string) {
  const [s] = await loadSuites(casesDir, [{ id: suite }]);
  let compared = 0;
  let queries = 0;
  for (const c of s!.cases.filter((x) => x.world)) {
    const access = diskAccess(materializeWorld(c.world!, c.id));
    const tools = createWorldTools(access);
    try {
      for (const source of c.sources ?? [c.source])
        for (const item of allTrailItems(source)) {
          if (item.call.name === 'query_table') queries++;
          const live = tools.run(asLive(item.call));
          expect(live.content, `${c.id} ${item.call.id} ${item.call.name}`).toBe(item.result!.content);
          expect(live.isError, `${c.id} ${item.call.id}`).toBe(item.result!.isError === true);
          compared++;
        }
    } finally {
      access.close();
    }
  }
  return { compared, queries, cases: s!.cases.filter((x) => x.world).length };
}

describe('recorded tool results are the live tools over the same world', () => {
  it('ledgerline: every call of all 30 children', async () => {
    const r = await compare(join(repoRoot, 'cases'), 'ledgerline');
    expect(r.cases).toBe(30);
    expect(r.queries).toBe(30);
    expect(r.compared).toBeGreaterThanOrEqual(30 * 7);
  });

  it('multi-child: every call of every child, the nightly snapshot query included', async () => {
    const r = await compare(join(repoRoot, 'cases'), 'multi-child');
    // Two queries per case: the config child's of merchant_config, the adapters child's of the snapshot.
    expect(r.queries).toBe(2 * r.cases);
    expect(r.compared).toBeGreaterThan(r.cases * 15);
  });

  it('the live test fixture', async () => {
    const r = await compare(join(repoRoot, 'test/fixtures/live-cases'), 'minilive');
    expect(r).toEqual({ compared: 3, queries: 0, cases: 1 });
  });
});
