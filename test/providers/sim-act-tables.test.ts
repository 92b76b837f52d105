import { afterAll, describe, expect, it } from 'vitest';
import type { Assertion, ModelRequestInput, Transcript, World } from '../../harness/core/index.ts';
import { createSimProvider } from '../../harness/providers/sim/index.ts';
import { materializeWorld } from '../../harness/live/world.ts';
import { diskAccess, type WorldAccess } from '../../harness/live/access.ts';
import { createWorldTools } from '../../harness/live/tools.ts';
import { runSourceLoop } from '../../harness/live/loop.ts';
import { indexText } from '../../harness/core/text/cues.ts';
import { readClaim } from '../../harness/core/text/reading.ts';

/**
 * The live sim's B7 lead (harness/providers/sim/act-leads.ts): a brief that names no table, but whose
 * words describe one the query tool lists (its name shares a word with the brief, a column another),
 * leads the child to query that table whole. Worlds and briefs here are made up: none is in cases/.
 * And the claim credit rule stays (issue 29 item 4): a claim whose provenance is a table's column is
 * stated only after the child queried that table.
 */
const open: WorldAccess[] = [];
afterAll(() => open.forEach((w) => w.close()));

const cols = (...c: string[]) => c;
const world: World = {
  files: { 'README.md': 'Logistics service.\n' },
  tables: {
    shipment_log: {
      columns: cols('shipment_id', 'carrier', 'weight_kg', 'shipped_at'),
      rows: [
        ['s1', 'northway', 12, '2026-11-02'],
        ['s2', 'baltic', 40, '2026-11-03'],
      ],
    },
    invoice_line: { columns: cols('invoice_id', 'amount_cents'), rows: [['i1', 1200]] },
  },
};

async function live(brief: string, w: World, assertions: Assertion[] = [], id = 'made-up') {
  const sim = createSimProvider();
  const access = diskAccess(materializeWorld(w, id));
  open.push(access);
  let n = 0;
  const call = (r: ModelRequestInput) =>
    sim.generate({ ...r, model: 'sim-large', seed: `1/${id}/0/act#${n++}` });
  const recorded: Transcript = {
    agents: { child: { role: 'child' } },
    messages: [{ role: 'user', text: brief }],
  };
  const out = await runSourceLoop({
    recorded,
    tools: createWorldTools(access),
    budget: 12,
    call,
    sim: { caseId: id, assertions, reference: { facts: [], caveats: [] } },
  });
  const calls = out.transcript.messages.flatMap((m) => m.toolCalls ?? []);
  return {
    queried: calls
      .filter((c) => c.name === 'query')
      .map((c) => /\bFROM\s+(\w+)/i.exec(String((c.input as { sql: string }).sql))![1]),
    report: out.transcript.messages.at(-1)!.text!,
  };
}

describe('B7: a table the brief describes without naming it', () => {
  it('queries the table whose name and a column the brief speaks of, and no other', async () => {
    const r = await live('Which carriers took the heaviest shipments last month, and by what weight?', world);
    expect(r.queried).toEqual(['shipment_log']);
  });

  it('makes no query when no table matches (a column alone is not enough)', async () => {
    const none = await live('Summarise how the release runbook is meant to be followed.', world);
    expect(none.queried).toEqual([]);
    // "carriers" names a column of shipment_log, but nothing names the table itself.
    const columnOnly = await live('Which carriers do we pay the most?', world);
    expect(columnOnly.queried).toEqual([]);
  });

  it('a brief that names a table queries that one: B7 adds no other', async () => {
    const w: World = {
      ...world,
      tables: { ...world.tables, shipment_log_archive: world.tables!.shipment_log! },
    };
    const r = await live('Count the rows of shipment_log per carrier.', w);
    expect(r.queried).toEqual(['shipment_log']);
    // Not named: both tables the words describe, in the order the tool lists them.
    const d = await live('Which carriers took the heaviest shipments, by weight?', w);
    expect(d.queried).toEqual(['shipment_log', 'shipment_log_archive']);
  });
});

describe('a stale-snapshot claim is credited only after the snapshot was queried', () => {
  const stock: World = {
    files: { 'README.md': 'Inventory service.\n' },
    tables: {
      stock: { columns: cols('sku', 'warehouse', 'units'), rows: [['a1', 'north', 40]] },
      stock_snapshot: { columns: cols('sku', 'warehouse', 'units'), rows: [['a1', 'north', 55]] },
    },
  };
  const fresh: Assertion = {
    id: 'fresh',
    kind: 'confident',
    statement: 'The north warehouse holds 40 units of a1 (stock.units).',
    claim: 'The north warehouse holds 40 units of a1.',
    cues: ['holds 40 units'],
    provenance: ['stock.units'],
  };
  const stale: Assertion = {
    id: 'stale',
    kind: 'confident',
    statement: 'The north warehouse holds 55 units of a1 according to stock_snapshot.',
    claim: 'The north warehouse holds 55 units of a1.',
    cues: ['holds 55 units'],
    provenance: ['stock_snapshot.units'],
  };
  const stated = (report: string, a: Assertion) => readClaim(indexText(report), a).present;

  it('a child that queried only the live table states the live figure, never the snapshot one', async () => {
    const r = await live('Count the units in stock per warehouse.', stock, [fresh, stale], 'stock-a');
    expect(r.queried).toEqual(['stock']);
    expect(stated(r.report, fresh)).toBe(true);
    expect(stated(r.report, stale)).toBe(false);
  });

  it('a child whose brief describes both tables queries both and may state both', async () => {
    const r = await live('Which warehouses run low on stocks of each sku?', stock, [fresh, stale], 'stock-b');
    expect(r.queried).toEqual(['stock', 'stock_snapshot']);
    expect(stated(r.report, fresh)).toBe(true);
    expect(stated(r.report, stale)).toBe(true);
  });
});
