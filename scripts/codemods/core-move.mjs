#!/usr/bin/env node
// Codemod for issue 18 item 1 (handoff-eval): gathers the leaf utilities into harness/core/, splits
// harness/types.ts by concept, moves the few files whose folder put them above their importers, and
// rewrites every relative import in the tree to the new paths. It works on whatever tree it is run in
// (files it has never seen that import '../types.ts' or 'harness/errors.ts' are rewritten too) and is
// idempotent: a second run finds nothing to move and nothing to rewrite.
//
//   cd <repo root> && node scripts/codemods/core-move.mjs [--dry-run]
//
// Then: npx tsc --noEmit && node scripts/import-graph.mjs (both must pass), and commit the result as
// one commit ("Codemod: …"). Needs git and the repo's own typescript and prettier (node_modules).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';

const root = process.cwd();
const dryRun = process.argv.includes('--dry-run');
if (!existsSync(join(root, 'package.json')) || !existsSync(join(root, 'harness'))) {
  console.error('core-move: run it from the handoff-eval repo root');
  process.exit(2);
}
const ts = createRequire(join(root, 'package.json'))('typescript');
const posix = (p) => p.split(sep).join('/');
const abs = (p) => join(root, p);
const rel = (p) => posix(relative(root, p));

// ---------------------------------------------------------------------------------------------
// The moves (repo-relative; a folder ends with '/': each file in it moves, whatever it holds today)
// ---------------------------------------------------------------------------------------------
const TYPES = 'harness/types.ts';
const CORE_INDEX = 'harness/core/index.ts';
const moveTable = [
  ['harness/errors.ts', 'harness/core/errors.ts'],
  ['harness/tokens.ts', 'harness/core/tokens.ts'],
  ['harness/atomic-write.ts', 'harness/core/atomic-write.ts'],
  ['harness/redact.ts', 'harness/core/redact.ts'],
  ['harness/text/', 'harness/core/text/'],
  ['harness/tokenizer/', 'harness/core/tokenizer/'],
  ['harness/transcript/', 'harness/core/transcript/'],
  // The cue lists the deterministic checks and the sim judge share (the sim imported it from judges/).
  ['judges/signals.ts', 'harness/core/text/signals.ts'],
  // The config's gate section is resolved by config/resolve-config.ts.
  ['harness/gate/thresholds.ts', 'harness/config/gate-thresholds.ts'],
  // A live cell is executed by the runner (it takes a planned cell).
  ['harness/live/live-cell.ts', 'harness/runner/live-cell.ts'],
  // The latest row per cell is what a report summarizes (the runner and the gate import it too).
  ['harness/runner/latest-rows.ts', 'reports/latest-rows.ts'],
  // The one call path (cache, retries, cost, unusable answers): judges, cases and the runner use it.
  ['harness/runner/calls.ts', 'harness/calls/call-path.ts'],
  ['harness/runner/unusable.ts', 'harness/calls/unusable.ts'],
  // The judge canary runs whole cells: above the runner's execute-cell.
  ['judges/canary.ts', 'harness/runner/canary.ts'],
];
// harness/types.ts's sections (its "// ----" banners) → files under harness/core/types/.
const sectionFiles = {
  Transcripts: 'transcript.ts',
  'Cases and suites': 'case.ts',
  'Arms, cells, strategies, handoffs': 'handoff.ts', // (its arms are placed in case.ts, below)
  'Model calls': 'model-call.ts',
  'Judging and results': 'result.ts',
};

const skipDirs = new Set(['node_modules', '.git', 'dist', 'runs', '.handoff-cache', 'tmp', 'coverage']);
function walk(dir, out = []) {
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir).sort()) {
    if (skipDirs.has(name) || name.startsWith('.dist-test-')) continue;
    const path = join(dir, name);
    const st = statSync(path);
    if (st.isDirectory()) walk(path, out);
    else out.push(path);
  }
  return out;
}

/** old repo-relative path → new, for every file that exists now. */
function fileMoves() {
  const moves = new Map();
  for (const [from, to] of moveTable) {
    if (from.endsWith('/')) {
      for (const f of walk(abs(from))) moves.set(rel(f), to + rel(f).slice(from.length));
    } else if (existsSync(abs(from))) moves.set(from, to);
  }
  for (const [from, to] of moves) {
    if (existsSync(abs(to))) throw new Error(`core-move: ${to} exists already (moving ${from})`);
  }
  return moves;
}

// ---------------------------------------------------------------------------------------------
// Splitting harness/types.ts
// ---------------------------------------------------------------------------------------------
// Declarations placed in another file than their section's, so the parts import each other one way
// (transcript ← case ← model-call ← handoff ← result): a suite's arms are part of the case file; the
// roles and tool specs a model request carries, of the model-call file.
const placement = {
  Arm: 'case.ts',
  ModelAlias: 'case.ts',
  ModelRole: 'model-call.ts',
  ToolSpec: 'model-call.ts',
};

const slug = (title) =>
  title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '') + '.ts';

/** The names a statement declares at top level, and whether each is a value. */
function declared(stmt) {
  const names = [];
  const isValue = !(ts.isInterfaceDeclaration(stmt) || ts.isTypeAliasDeclaration(stmt));
  if (ts.isVariableStatement(stmt)) {
    for (const d of stmt.declarationList.declarations) if (ts.isIdentifier(d.name)) names.push(d.name.text);
  } else if (stmt.name && ts.isIdentifier(stmt.name)) names.push(stmt.name.text);
  return names.map((name) => ({ name, isValue }));
}

function identifiersIn(node, out = new Set()) {
  if (ts.isIdentifier(node)) out.add(node.text);
  ts.forEachChild(node, (c) => {
    identifiersIn(c, out); // (a truthy return would stop forEachChild)
  });
  return out;
}

/**
 * The parts of types.ts: { file, text, names } per section. The file's opening doc comment goes to
 * core/index.ts; its own imports (if any) go to the parts that use them.
 */
function splitTypes(text) {
  const sf = ts.createSourceFile(TYPES, text, ts.ScriptTarget.Latest, true);
  const banner = /\/\/ -{20,}\n\/\/ (.+)\n\/\/ -{20,}\n/g;
  const marks = [...text.matchAll(banner)];
  if (marks.length === 0) throw new Error(`core-move: ${TYPES} has no "// ----" section banners`);
  const head = text.slice(0, marks[0].index);
  const imports = sf.statements.filter((s) => ts.isImportDeclaration(s));
  const headDoc = /^\s*\/\*\*[\s\S]*?\*\//.exec(head)?.[0].trim() ?? '';
  const parts = marks.map((m, i) => {
    const start = m.index + m[0].length;
    const end = i + 1 < marks.length ? marks[i + 1].index : text.length;
    const title = m[1].trim();
    return { title, file: sectionFiles[title] ?? slug(title), start, end, body: text.slice(start, end) };
  });
  const owner = new Map(); // name → { part, isValue }
  const cuts = new Map(parts.map((p) => [p, []])); // ranges leaving a part
  const extra = new Map(parts.map((p) => [p, []])); // statement texts joining a part
  for (const stmt of sf.statements) {
    const pos = stmt.getStart(sf);
    const at = parts.find((p) => pos >= p.start && pos < p.end);
    if (!at) continue;
    const names = declared(stmt);
    const wanted = names.map((d) => placement[d.name]).find(Boolean);
    const home = (wanted && parts.find((p) => p.file === wanted)) || at;
    if (home !== at) {
      const from = Math.max(stmt.pos, at.start);
      cuts.get(at).push([from - at.start, stmt.end - at.start]);
      extra.get(home).push(text.slice(from, stmt.end).replace(/^\n+/, '\n'));
    }
    for (const d of names) owner.set(d.name, { part: home, isValue: d.isValue });
  }
  for (const part of parts) {
    let body = part.body;
    for (const [a, b] of cuts.get(part).sort((x, y) => y[0] - x[0])) body = body.slice(0, a) + body.slice(b);
    part.body =
      body.trimEnd() +
      extra
        .get(part)
        .map((t) => `\n${t}`)
        .join('') +
      '\n';
  }
  for (const part of parts) {
    const used = identifiersIn(ts.createSourceFile(part.file, part.body, ts.ScriptTarget.Latest, true));
    const needs = new Map(); // other part file → { values:Set, types:Set }
    for (const name of used) {
      const o = owner.get(name);
      if (!o || o.part === part) continue;
      const n = needs.get(o.part.file) ?? { values: new Set(), types: new Set() };
      (o.isValue ? n.values : n.types).add(name);
      needs.set(o.part.file, n);
    }
    const lines = [];
    for (const imp of imports) {
      const names = [...identifiersIn(imp.importClause ?? imp)].filter((n) => used.has(n));
      if (names.length) lines.push(rewriteSpecifierText(imp.getText(sf), '..'));
    }
    for (const [file, n] of [...needs].sort(([a], [b]) => a.localeCompare(b))) {
      const specs = [...[...n.values].sort(), ...[...n.types].sort().map((t) => `type ${t}`)];
      const allTypes = n.values.size === 0;
      const list = allTypes ? [...n.types].sort().join(', ') : specs.join(', ');
      lines.push(`import ${allTypes ? 'type ' : ''}{ ${list} } from './${file}';`);
    }
    const title = part.file === 'handoff.ts' ? 'Cells, strategies, handoffs' : part.title;
    part.text =
      `${lines.length ? lines.join('\n') + '\n\n' : ''}// ${title}: part of the domain model (harness/core/index.ts).\n` +
      part.body.replace(/^\n+/, '\n').trimEnd() +
      '\n';
    part.names = [...owner].filter(([, o]) => o.part === part).map(([n]) => n);
  }
  return { headDoc, parts };
}

/** An import statement of types.ts itself moves one folder down (core/types/). */
function rewriteSpecifierText(statement, up) {
  return statement.replace(/from '(\.[^']*)'/, (_, spec) => {
    const target = resolve(dirname(abs(TYPES)), spec);
    const from = join(abs('harness/core/types'), 'x.ts');
    return `from '${relSpec(dirname(from), movedPath(rel(target)))}'`;
  });
}

// ---------------------------------------------------------------------------------------------
// Rewriting specifiers
// ---------------------------------------------------------------------------------------------
let moves = new Map();
let typeParts = null; // { file, names }[] when types.ts is split in this run
const movedPath = (p) => moves.get(p) ?? p;

function relSpec(fromDir, toRepoPath) {
  let s = posix(relative(fromDir, abs(toRepoPath)));
  if (!s.startsWith('.')) s = `./${s}`;
  return s;
}

const partOf = (name) => typeParts.find((p) => p.names.includes(name));

/** Module specifier string literals in a file, with what kind of reference each is. */
function references(sf) {
  const found = [];
  const visit = (node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      if (ts.isStringLiteral(node.moduleSpecifier)) found.push({ lit: node.moduleSpecifier, decl: node });
    } else if (ts.isCallExpression(node) && node.arguments[0] && ts.isStringLiteralLike(node.arguments[0])) {
      const callee = node.expression;
      const name = callee.kind === ts.SyntaxKind.ImportKeyword ? 'import' : callee.getText();
      if (
        /^(import|require|vi\.mock|vi\.doMock|vi\.importActual|vi\.importMock|require\.resolve)$/.test(name)
      )
        found.push({ lit: node.arguments[0] });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      if (ts.isStringLiteral(node.argument.literal)) found.push({ lit: node.argument.literal });
    } else if (
      ts.isNewExpression(node) &&
      node.expression.getText() === 'URL' &&
      node.arguments?.length === 2 &&
      ts.isStringLiteralLike(node.arguments[0]) &&
      node.arguments[1].getText() === 'import.meta.url'
    ) {
      found.push({ lit: node.arguments[0], url: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

/** One import/export of types.ts from inside core: split by which part declares each name. */
function splitDeclaration(decl, sf, fromDir) {
  const isExport = ts.isExportDeclaration(decl);
  const clause = isExport ? decl.exportClause : decl.importClause?.namedBindings;
  const declTypeOnly = isExport ? decl.isTypeOnly : decl.importClause?.isTypeOnly;
  if (!clause || !(ts.isNamedImports(clause) || ts.isNamedExports(clause)) || decl.importClause?.name)
    return null;
  const byPart = new Map();
  for (const el of clause.elements) {
    const name = (el.propertyName ?? el.name).text;
    const part = partOf(name);
    if (!part) throw new Error(`core-move: ${sf.fileName}: ${name} is not declared in ${TYPES}`);
    const list = byPart.get(part.file) ?? [];
    list.push(el.getText(sf));
    byPart.set(part.file, list);
  }
  const kw = isExport ? 'export' : 'import';
  return [...byPart]
    .map(
      ([file, els]) =>
        `${kw} ${declTypeOnly ? 'type ' : ''}{ ${els.join(', ')} } from '${relSpec(fromDir, `harness/core/types/${file}`)}';`,
    )
    .join('\n');
}

/** The new text of a file that lives (after the moves) at newPath, or null when unchanged. */
function rewriteFile(oldPath, newPath, text) {
  const kind = /\.(m|c)?tsx?$/.test(oldPath) ? ts.ScriptKind.TS : ts.ScriptKind.JS;
  const sf = ts.createSourceFile(oldPath, text, ts.ScriptTarget.Latest, true, kind);
  const oldDir = dirname(abs(oldPath));
  const newDir = dirname(abs(newPath));
  const edits = [];
  for (const { lit, decl, url } of references(sf)) {
    const spec = lit.text;
    if (!spec.startsWith('.')) continue;
    const target = rel(resolve(oldDir, spec));
    const targetMoved = moves.has(target) || (typeParts && target === TYPES);
    // A reference to something that is not there (a file the build writes next to the bundle) keeps
    // its text: it is relative to wherever the module runs from.
    if (!targetMoved && !existsSync(abs(target))) continue;
    if (!targetMoved && oldDir === newDir) continue;
    let replacement;
    if (typeParts && target === TYPES) {
      if (url) continue;
      const insideCore = newPath.startsWith('harness/core/');
      if (decl && ts.isExportDeclaration(decl) && !decl.exportClause && decl.isTypeOnly) {
        // `export type * from './types.ts'` (the public API): the same names, from each part.
        const lines = typeParts.map(
          (p) => `export type * from '${relSpec(newDir, `harness/core/types/${p.file}`)}';`,
        );
        edits.push({ start: decl.getStart(sf), end: decl.getEnd(), text: lines.join('\n') });
        continue;
      }
      if (insideCore) {
        const split = decl ? splitDeclaration(decl, sf, newDir) : null;
        if (split === null)
          throw new Error(`core-move: ${oldPath}: cannot split this reference to ${TYPES} inside core`);
        edits.push({ start: decl.getStart(sf), end: decl.getEnd(), text: split });
        continue;
      }
      replacement = relSpec(newDir, CORE_INDEX);
    } else {
      replacement = relSpec(newDir, movedPath(target));
    }
    if (replacement === spec) continue;
    const quote = text[lit.getStart(sf)];
    edits.push({ start: lit.getStart(sf), end: lit.getEnd(), text: `${quote}${replacement}${quote}` });
  }
  if (edits.length === 0) return null;
  let out = text;
  for (const e of edits.sort((a, b) => b.start - a.start))
    out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}

/** Repo-relative paths named in prose and scripts (docs, the build's esbuild stdin): moved ones renamed. */
function rewriteMentions(text) {
  const pairs = [];
  for (const [from, to] of moveTable) pairs.push([from, to]);
  if (typeParts) pairs.push([TYPES, CORE_INDEX]);
  let out = text;
  for (const [from, to] of pairs.sort((a, b) => b[0].length - a[0].length)) {
    const esc = from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    // Not preceded by a path character (so harness/core/text/ is not matched by harness/text/ twice).
    const tail = from.endsWith('/') ? '' : '(?![\\w-])';
    out = out.replace(new RegExp(`(?<![\\w/.-])(\\./)?${esc}${tail}`, 'g'), (_m, dot) => `${dot ?? ''}${to}`);
  }
  return out === text ? null : out;
}

// ---------------------------------------------------------------------------------------------
// Run
// ---------------------------------------------------------------------------------------------
moves = fileMoves();
const writes = new Map(); // new repo path → text
let split = null;
if (existsSync(abs(TYPES))) {
  split = splitTypes(readFileSync(abs(TYPES), 'utf8'));
  typeParts = split.parts;
}

const codeExt = /\.(ts|mts|cts|js|mjs|cjs)$/;
const proseExt = /\.(md)$/;
for (const file of walk(root)) {
  const oldPath = rel(file);
  if (oldPath === TYPES) continue;
  const newPath = movedPath(oldPath);
  const text = readFileSync(file, 'utf8');
  let next = null;
  if (codeExt.test(oldPath) && !oldPath.endsWith('.d.ts')) {
    next = rewriteFile(oldPath, newPath, text);
    // Paths in strings the build hands to esbuild (scripts/*.mjs): repo-relative, not import specifiers.
    if (oldPath.startsWith('scripts/') && oldPath.endsWith('.mjs'))
      next = rewriteMentions(next ?? text) ?? next;
  } else if (proseExt.test(oldPath)) {
    next = rewriteMentions(text);
  }
  if (next !== null) writes.set(newPath, next);
}

if (split) {
  for (const part of split.parts) writes.set(`harness/core/types/${part.file}`, part.text);
}
if (split || !existsSync(abs(CORE_INDEX))) {
  const partsList = split ? split.parts.map((p) => `./types/${p.file}`) : [];
  const coreFiles = [...new Set([...moves.values(), ...walk(abs('harness/core')).map(rel)])]
    .filter((p) => p.startsWith('harness/core/') && p !== CORE_INDEX && /\.ts$/.test(p))
    .filter((p) => !p.startsWith('harness/core/types/'))
    .map((p) => relSpec(abs('harness/core'), p))
    .sort();
  const doc = (split?.headDoc ?? '/** The core of handoff-eval. */').replace(
    'Every other module imports its types from here.',
    'Every other module imports its types from here\n * (split by concept under types/); the rest of core — errors, tokens and the tokenizer, text and\n * cue lists, transcript views — is exported here too. Core imports nothing outside harness/core/.',
  );
  const lines = [doc, '', ...[...partsList, ...coreFiles].map((s) => `export * from '${s}';`), ''];
  writes.set(CORE_INDEX, lines.join('\n'));
}

if (dryRun) {
  for (const [from, to] of moves) console.log(`move ${from} -> ${to}`);
  if (split)
    console.log(`split ${TYPES} -> ${split.parts.map((p) => `harness/core/types/${p.file}`).join(', ')}`);
  for (const p of [...writes.keys()].sort()) console.log(`write ${p}`);
  process.exit(0);
}

const git = (...args) => execFileSync('git', args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
for (const [from, to] of moves) {
  mkdirSync(dirname(abs(to)), { recursive: true });
  git('mv', from, to);
}
if (split) git('rm', '-q', TYPES);
for (const [path, text] of writes) {
  mkdirSync(dirname(abs(path)), { recursive: true });
  writeFileSync(abs(path), text);
}
const changed = [...writes.keys()].filter((p) => /\.(ts|mts|mjs|js|md)$/.test(p));
if (changed.length) {
  // Rewritten import lines can pass the width; the tree is kept prettier-clean at 110.
  execFileSync('npx', ['prettier', '--write', '--log-level', 'warn', ...changed], {
    cwd: root,
    stdio: 'inherit',
  });
  git('add', '-A', '--', ...new Set([...changed, ...moves.values()]));
}
console.log(
  `core-move: ${moves.size} file(s) moved${split ? `, ${TYPES} split into ${split.parts.length}` : ''}, ${writes.size} file(s) written`,
);
