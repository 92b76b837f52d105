// The import graph of the sources (harness/, strategies/, cases/, judges/, reports/) read with the
// TypeScript parser, checked against the layer order written in docs/architecture.md: an edge may only
// point to the same layer or one listed before it, and no cycle may exist (type-only imports count:
// they are erased at runtime but still tie the files together for a reader).
//
//   node scripts/import-graph.mjs          prints every violation and cycle; exit 1 when there is one
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

export const sourceRoots = ['harness', 'strategies', 'cases', 'judges', 'reports'];

function walk(dir, out = []) {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, out);
    else if (/\.(ts|mts)$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

const posix = (p) => p.split(sep).join('/');

/**
 * Every module specifier in a source text with how it is imported: 'value' (import/export … from),
 * 'type' (`import type`, `export type`, or an import whose every named binding is `type`; `import('x')`
 * in a type position) or 'dynamic' (`import('x')` as an expression).
 */
export function specifiersOf(fileName, text) {
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found = [];
  const typeOnlyClause = (clause) =>
    clause.isTypeOnly ||
    (!clause.name &&
      clause.namedBindings &&
      ts.isNamedImports(clause.namedBindings) &&
      clause.namedBindings.elements.length > 0 &&
      clause.namedBindings.elements.every((e) => e.isTypeOnly));
  const visit = (node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const kind = node.importClause && typeOnlyClause(node.importClause) ? 'type' : 'value';
      found.push({ specifier: node.moduleSpecifier.text, kind });
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      const typeOnly =
        node.isTypeOnly ||
        (node.exportClause &&
          ts.isNamedExports(node.exportClause) &&
          node.exportClause.elements.length > 0 &&
          node.exportClause.elements.every((e) => e.isTypeOnly));
      found.push({ specifier: node.moduleSpecifier.text, kind: typeOnly ? 'type' : 'value' });
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      found.push({ specifier: node.arguments[0].text, kind: 'dynamic' });
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      found.push({ specifier: node.argument.literal.text, kind: 'type' });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

/** The edges between source files (repo-relative, '/'-separated); packages and node: imports are left out. */
export function collectEdges(root, roots = sourceRoots) {
  const edges = [];
  for (const file of roots.flatMap((r) => walk(join(root, r)))) {
    const from = posix(relative(root, file));
    for (const { specifier, kind } of specifiersOf(file, readFileSync(file, 'utf8'))) {
      if (!specifier.startsWith('.')) continue;
      edges.push({ from, to: posix(relative(root, resolve(dirname(file), specifier))), kind });
    }
  }
  return edges;
}

/**
 * The layer order from the ```layers block of docs/architecture.md: one path per line (a folder ends
 * with '/'), lowest first; '#' starts a comment. A file belongs to the longest path that contains it.
 */
export function parseLayers(markdown) {
  const block = /```layers\n([\s\S]*?)```/.exec(markdown);
  if (!block) throw new Error('docs/architecture.md: no ```layers block');
  return block[1]
    .split('\n')
    .map((line) => line.replace(/#.*/, '').trim())
    .filter(Boolean);
}

/** The layer a file is in (the longest matching path), or undefined. */
export function layerOf(file, layers) {
  let best;
  for (const layer of layers) {
    const hit = layer.endsWith('/') ? file.startsWith(layer) : file === layer;
    if (hit && (best === undefined || layer.length > best.length)) best = layer;
  }
  return best;
}

/** Strongly connected components with more than one file (or a file importing itself). */
export function cycles(edges) {
  const next = new Map();
  for (const { from, to } of edges) {
    if (!next.has(from)) next.set(from, new Set());
    next.get(from).add(to);
  }
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  let counter = 0;
  const connect = (v) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) === index.get(v)) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || next.get(v)?.has(v)) found.push(component.sort());
    }
  };
  for (const v of next.keys()) if (!index.has(v)) connect(v);
  return found;
}

/**
 * What breaks the order: an edge from a layer to one listed after it, a file in no layer, and every
 * cycle (between files, whatever their layers).
 */
export function checkGraph(edges, layers) {
  const rank = new Map(layers.map((l, i) => [l, i]));
  const violations = [];
  const unplaced = new Set();
  for (const edge of edges) {
    const a = layerOf(edge.from, layers);
    const b = layerOf(edge.to, layers);
    if (a === undefined) unplaced.add(edge.from);
    if (b === undefined) unplaced.add(edge.to);
    if (a === undefined || b === undefined) continue;
    if (rank.get(b) > rank.get(a)) violations.push({ ...edge, fromLayer: a, toLayer: b });
  }
  return { violations, unplaced: [...unplaced].sort(), cycles: cycles(edges) };
}

export function formatProblems({ violations, unplaced, cycles: found }) {
  return [
    ...violations.map((v) => `upward ${v.kind} import: ${v.from} (${v.fromLayer}) -> ${v.to} (${v.toLayer})`),
    ...unplaced.map((f) => `in no layer of docs/architecture.md: ${f}`),
    ...found.map((c) => `cycle: ${c.join(' <-> ')}`),
  ];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const root = dirname(dirname(fileURLToPath(import.meta.url)));
  const layers = parseLayers(readFileSync(join(root, 'docs', 'architecture.md'), 'utf8'));
  const problems = formatProblems(checkGraph(collectEdges(root), layers));
  for (const p of problems) console.log(p);
  console.log(problems.length ? `${problems.length} problem(s)` : 'import graph follows the layer order');
  process.exitCode = problems.length ? 1 : 0;
}
