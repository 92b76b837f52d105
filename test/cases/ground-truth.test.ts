import { describe, expect, it } from 'vitest';
import type { Case } from '../../harness/core/index.ts';
import { isReal, suite } from './helpers.ts';

/**
 * Ground truth recomputed from the case's own world — the merchant_config table and the adapter
 * sources the child could read — independently of the generator's code, then compared with the
 * merchant ids the reference names.
 */
interface Truth {
  direct: string[];
  indirect: string[];
  sandboxPinned: string[];
}

function truthFromWorld(c: Case): Truth {
  const table = c.world!.tables!.merchant_config!;
  const col = (name: string) => table.columns.indexOf(name);
  const rows = table.rows.map((r) => ({
    id: String(r[col('merchant_id')]),
    adapter: String(r[col('adapter')]),
    version: r[col('api_version')] as string | null,
  }));
  const files = c.world!.files!;
  const direct = rows.filter((r) => r.version === '2023-10').map((r) => r.id);
  const indirect: string[] = [];
  for (const [path, src] of Object.entries(files)) {
    const m = path.match(/^adapters\/(\w+)\.ts$/);
    if (!m || !/FALLBACK_API_VERSION: ApiVersion = '2023-10'/.test(src)) continue;
    const supported = [
      ...src.match(/SUPPORTED_VERSIONS[^=]*= \[([^\]]*)\]/)![1]!.matchAll(/'([\d-]+)'/g),
    ].map((x) => x[1]);
    for (const r of rows)
      if (
        r.adapter === m[1] &&
        r.version !== '2023-10' &&
        (r.version === null || !supported.includes(r.version))
      )
        indirect.push(r.id);
  }
  const sandboxSrc = files['adapters/sandbox.ts'];
  const pinned = sandboxSrc?.match(/SANDBOX_API_VERSION: ApiVersion = '([\d-]+)'/)?.[1];
  const sandboxPinned =
    pinned === '2023-10'
      ? rows.filter((r) => r.adapter === 'sandbox' && r.version !== '2023-10').map((r) => r.id)
      : [];
  return { direct, indirect, sandboxPinned };
}

const idsIn = (text: string) => [...text.matchAll(/m_\d{4}/g)].map((m) => m[0]).sort();
const fact = (c: Case, id: string) => c.reference.facts.find((f) => f.id === id)!;

describe('ledgerline ground truth', () => {
  it('the affected set in the reference equals what the world implies (direct, indirect, total)', async () => {
    for (const c of (await suite('ledgerline')).cases.filter((x) => !isReal(x))) {
      const t = truthFromWorld(c);
      expect(t.indirect.length, c.id).toBeGreaterThanOrEqual(2);
      expect(idsIn(fact(c, 'f-direct').text), c.id).toEqual([...t.direct].sort());
      expect(idsIn(fact(c, 'f-indirect').text), c.id).toEqual([...t.indirect].sort());
      expect(idsIn(fact(c, 'f-total').text), c.id).toEqual(
        [...t.direct, ...t.indirect, ...t.sandboxPinned].sort(),
      );
    }
  });

  it('what the child cannot read is a caveat the reference requires, and what it can read is not', async () => {
    for (const c of (await suite('ledgerline')).cases.filter((x) => !isReal(x))) {
      const readable = 'adapters/sandbox.ts' in c.world!.files!;
      expect(c.reference.caveats.includes('sandbox-pin'), c.id).toBe(!readable);
      expect(c.reference.caveats.includes('batch-version'), c.id).toBe(
        'jobs/settlement.ts' in c.world!.files!,
      );
      expect(c.reference.caveats.length, c.id).toBeGreaterThanOrEqual(2);
      for (const id of c.reference.caveats)
        expect(c.assertions.find((a) => a.id === id)?.kind, `${c.id}/${id}`).not.toBe('confident');
    }
  });

  it('every provenance file:line the child cites points into a file of its world', async () => {
    for (const c of (await suite('ledgerline')).cases.filter((x) => !isReal(x))) {
      for (const p of c.assertions.flatMap((a) => a.provenance ?? [])) {
        const m = p.match(/^(.+\.(?:ts|md)):(\d+)$/);
        if (!m) continue;
        const lines = c.world!.files![m[1]!]?.split('\n');
        expect(lines, `${c.id}: ${p}`).toBeDefined();
        expect(Number(m[2])).toBeLessThanOrEqual(lines!.length);
      }
    }
  });
});

describe('multi-child ground truth', () => {
  it('the reference facts match the world; the contradictions pair claims from different children', async () => {
    for (const c of (await suite('multi-child')).cases.filter((x) => !isReal(x))) {
      const t = truthFromWorld(c);
      expect(idsIn(fact(c, 'f-direct').text), c.id).toEqual([...t.direct].sort());
      expect(idsIn(fact(c, 'f-indirect').text), c.id).toEqual([...t.indirect].sort());
      const owner = (id: string) =>
        c.sources!.findIndex((s) =>
          s.messages.some((m) => m.text?.includes(c.assertions.find((a) => a.id === id)!.statement)),
        );
      for (const x of c.reference.contradictions!)
        expect(owner(x.between[0]), x.topic).not.toBe(owner(x.between[1]));
    }
  });

  it('what none of the children searched is in every child\'s own "Not searched" line', async () => {
    for (const c of (await suite('multi-child')).cases.filter((x) => !isReal(x))) {
      for (const s of c.sources!) {
        const last = s.messages.filter((m) => m.role === 'assistant' && m.text).pop()!.text!;
        const line = last.split('\n').find((l) => l.startsWith('Not searched:'))!;
        for (const n of c.reference.notSearched!) expect(line, c.id).toContain(n);
      }
    }
  });
});
