import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  checkGraph,
  collectEdges,
  formatProblems,
  parseLayers,
  specifiersOf,
  type ImportEdge,
} from '../../scripts/import-graph.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const layers = parseLayers(readFileSync(join(root, 'docs', 'architecture.md'), 'utf8'));

describe('the import graph follows docs/architecture.md', () => {
  const edges = collectEdges(root);

  it('reads the whole graph: value, type-only and dynamic imports', () => {
    expect(edges.length).toBeGreaterThan(500);
    const kinds = new Set(edges.map((e) => e.kind));
    expect([...kinds].sort()).toEqual(['dynamic', 'type', 'value']);
  });

  it('has no upward edge, no file outside a layer and no cycle', () => {
    expect(formatProblems(checkGraph(edges, layers))).toEqual([]);
  });

  it('core imports nothing outside harness/core/, and is the lowest layer', () => {
    expect(layers[0]).toBe('harness/core/');
    const out = edges.filter((e) => e.from.startsWith('harness/core/') && !e.to.startsWith('harness/core/'));
    expect(out).toEqual([]);
  });

  it('only the runner and the layers above it import the runner', () => {
    const above = layers.slice(layers.indexOf('harness/runner/'));
    const into = edges.filter((e) => e.to.startsWith('harness/runner/'));
    expect(into.length).toBeGreaterThan(0);
    for (const e of into) expect(above.some((l) => e.from.startsWith(l) || e.from === l)).toBe(true);
  });
});

describe('the check catches what it is for (negative controls)', () => {
  const order = ['core/', 'strategies/', 'judges/', 'runner/'];
  const edge = (from: string, to: string, kind: ImportEdge['kind'] = 'value'): ImportEdge => ({
    from,
    to,
    kind,
  });

  it('an edge to a later layer, even type-only, is a violation', () => {
    const r = checkGraph(
      [edge('strategies/a.ts', 'core/t.ts'), edge('judges/j.ts', 'runner/r.ts', 'type')],
      order,
    );
    expect(r.violations.map((v) => `${v.from}->${v.to}`)).toEqual(['judges/j.ts->runner/r.ts']);
    expect(r.cycles).toEqual([]);
  });

  it('a cycle inside one layer is reported, a chain is not', () => {
    const chain = checkGraph([edge('judges/a.ts', 'judges/b.ts'), edge('judges/b.ts', 'judges/c.ts')], order);
    expect(chain.cycles).toEqual([]);
    const loop = checkGraph(
      [
        edge('judges/a.ts', 'judges/b.ts'),
        edge('judges/b.ts', 'judges/c.ts', 'type'),
        edge('judges/c.ts', 'judges/a.ts', 'dynamic'),
      ],
      order,
    );
    expect(loop.violations).toEqual([]);
    expect(loop.cycles).toEqual([['judges/a.ts', 'judges/b.ts', 'judges/c.ts']]);
  });

  it('a file in no layer is reported', () => {
    expect(checkGraph([edge('elsewhere/x.ts', 'core/t.ts')], order).unplaced).toEqual(['elsewhere/x.ts']);
  });

  it('the longest matching layer wins (a sub-folder listed below its parent)', () => {
    const nested = ['core/', 'providers/sim/', 'config/', 'providers/'];
    expect(checkGraph([edge('providers/x.ts', 'config/c.ts')], nested).violations).toEqual([]);
    expect(checkGraph([edge('providers/sim/s.ts', 'config/c.ts')], nested).violations).toHaveLength(1);
  });

  it('parses every way a module is named: import, import type, export from, import(), import("x").T', () => {
    const text = [
      "import { a } from './value.ts';",
      "import type { T } from './type.ts';",
      "import { type U, type V } from './type-named.ts';",
      "export { b } from './export.ts';",
      "export type { W } from './export-type.ts';",
      "export * from './star.ts';",
      "const m = await import('./dynamic.ts');",
      "let x: import('./type-query.ts').X;",
      "import 'node:fs';",
    ].join('\n');
    expect(specifiersOf('x.ts', text)).toEqual([
      { specifier: './value.ts', kind: 'value' },
      { specifier: './type.ts', kind: 'type' },
      { specifier: './type-named.ts', kind: 'type' },
      { specifier: './export.ts', kind: 'value' },
      { specifier: './export-type.ts', kind: 'type' },
      { specifier: './star.ts', kind: 'value' },
      { specifier: './dynamic.ts', kind: 'dynamic' },
      { specifier: './type-query.ts', kind: 'type' },
      { specifier: 'node:fs', kind: 'value' },
    ]);
  });

  const tree = mkdtempSync(join(tmpdir(), 'handoff-import-graph-'));
  afterAll(() => rmSync(tree, { recursive: true, force: true }));

  it('a synthetic tree with core importing a strategy and a judge cycle fails end to end', () => {
    const write = (path: string, text: string) => {
      mkdirSync(dirname(join(tree, path)), { recursive: true });
      writeFileSync(join(tree, path), text);
    };
    write('harness/core/types.ts', "import type { S } from '../../strategies/s.ts';\nexport type T = S;\n");
    write('strategies/s.ts', "import type { T } from '../harness/core/types.ts';\nexport type S = string;\n");
    write('judges/a.ts', "export const a = async () => import('./b.ts');\n");
    write('judges/b.ts', "import { a } from './a.ts';\nexport const b = a;\n");
    const problems = formatProblems(
      checkGraph(collectEdges(tree, ['harness', 'strategies', 'judges']), [
        'harness/core/',
        'strategies/',
        'judges/',
      ]),
    );
    expect(problems).toEqual([
      'upward type import: harness/core/types.ts (harness/core/) -> strategies/s.ts (strategies/)',
      'cycle: harness/core/types.ts <-> strategies/s.ts',
      'cycle: judges/a.ts <-> judges/b.ts',
    ]);
  });
});
