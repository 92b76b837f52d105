#!/usr/bin/env node
// A scripted example agent for `run --mode live --source <name>` (docs/live.md#your-own-agent-as-the-source).
//
//   node agent.mjs --world <dir> --brief <file> --out <file> [--budget <n>]
//
// It reads its task from --brief, investigates the world directory the harness materialised
// (<world>/repo: the files, <world>/docs: documents, <world>/world.sqlite: the tables) and writes what
// it did as an OpenAI Chat Completions message list to --out — each look as an assistant tool call
// with its tool result, then its final report. No model is called: the "reasoning" is a fixed
// recipe (search the brief's distinctive terms, read the files with the most hits, look the terms up
// in every table), so the session is the same on every run. Replace this script with your own agent;
// what the harness needs is only the session file in a format its importers read.
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const args = parseArgs(process.argv.slice(2));
const world = required('world');
const brief = readFileSync(required('brief'), 'utf8');
const budget = Number(args.budget ?? 12);
const repo = join(world, 'repo');
const docs = join(world, 'docs');

const messages = [
  {
    role: 'system',
    content: 'You are a research agent. Investigate the task with the tools; report findings with sources.',
  },
  { role: 'user', content: brief },
];
let calls = 0;
let outOfBudget = false;

/** One look: recorded as a tool call and its result, counted against the budget. */
function tool(name, input, run) {
  if (calls >= budget) {
    outOfBudget = true;
    return undefined;
  }
  calls++;
  const id = `call_${calls}`;
  let content;
  let value;
  try {
    value = run();
    content = typeof value === 'string' ? value : render(value);
  } catch (err) {
    content = `Error: ${err.message}`;
  }
  messages.push({
    role: 'assistant',
    content: null,
    tool_calls: [{ id, type: 'function', function: { name, arguments: JSON.stringify(input) } }],
  });
  messages.push({ role: 'tool', tool_call_id: id, content: content.slice(0, 8000) });
  return value;
}

// Repository files by their repository path; documents as docs/<name>.
const files = [
  ...walk(repo).map((abs) => ({ path: relative(repo, abs), abs })),
  ...walk(docs).map((abs) => ({ path: `docs/${relative(docs, abs)}`, abs })),
];
const absOf = new Map(files.map((f) => [f.path, f.abs]));
const terms = termsOf(brief);
const hits = [];
for (const term of terms.slice(0, 4)) {
  const found = tool('search_code', { query: escape(term) }, () => grep(files, term));
  if (found) hits.push(...found.map((h) => ({ ...h, term })));
}

const rows = [];
const db = await openDatabase(join(world, 'world.sqlite'));
if (db) {
  const tables = tool('query', { sql: "SELECT name FROM sqlite_master WHERE type = 'table'" }, () =>
    db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all(),
  );
  for (const { name } of tables ?? []) {
    const columns = db
      .prepare(`PRAGMA table_info("${name}")`)
      .all()
      .map((c) => c.name);
    for (const term of terms.filter((t) => /\d/.test(t)).slice(0, 2)) {
      const where = columns.map((c) => `"${c}" = '${term.replace(/'/g, "''")}'`).join(' OR ');
      const sql = `SELECT * FROM "${name}" WHERE ${where}`;
      const found = tool('query', { sql }, () => db.prepare(sql).all());
      if (found?.length) rows.push({ table: name, term, columns, found });
    }
  }
}

// The files with the most hits, source before tests and fixtures.
const ranked = [...count(hits.map((h) => h.file))]
  .sort((a, b) => isTest(a[0]) - isTest(b[0]) || b[1] - a[1])
  .map(([file]) => file);
const read = new Map();
for (const file of ranked.slice(0, 3)) {
  const text = tool('read_file', { path: file }, () => numbered(readFileSync(absOf.get(file), 'utf8')));
  if (text) read.set(file, readFileSync(absOf.get(file), 'utf8'));
}

messages.push({ role: 'assistant', content: report() });
writeFileSync(required('out'), `${JSON.stringify({ messages }, null, 2)}\n`);

function report() {
  const lines = ['Findings:'];
  for (const r of rows) {
    const col = r.columns.find((c) => r.found.every((row) => String(row[c]) === r.term)) ?? r.columns[0];
    const ids = r.found.map((row) => row[r.columns[0]]);
    lines.push(
      `- ${r.found.length} rows of ${r.table} have ${r.table}.${col} = '${r.term}': ${ids.join(', ')}.`,
    );
  }
  const shown = hits.filter((h) => !isTest(h.file)).slice(0, 10);
  for (const h of shown) lines.push(`- ${h.file}:${h.line}: ${h.text.trim().slice(0, 160)}`);
  for (const [file, text] of read)
    text.split('\n').forEach((line, i) => {
      if (/fallback|default/i.test(line) && terms.some((t) => line.includes(t)))
        lines.push(`- ${file}:${i + 1} falls back to a default: ${line.trim().slice(0, 160)}`);
    });
  if (lines.length === 1) lines.push('- Nothing in the world matched the terms of the task.');
  lines.push('', 'What I could not determine:');
  const missing = unresolvedImports();
  for (const m of missing)
    lines.push(
      `- I could not determine what ${m.pkg} does (imported at ${m.file}:${m.line}): it is not in this repository.`,
    );
  if (outOfBudget)
    lines.push(`- I ran out of tool calls (${budget}) before reading everything that matched.`);
  if (!missing.length && !outOfBudget) lines.push('- Nothing beyond what is listed above.');
  lines.push('', 'What I assumed:');
  lines.push('- That the database copy and the files I read are current.');
  return lines.join('\n');
}

/** Imports of packages that are neither relative nor present in the world. */
function unresolvedImports() {
  const out = [];
  for (const [file, text] of read)
    text.split('\n').forEach((line, i) => {
      const m = /from\s+['"](@[^'"]+|[a-z][^'"]*)['"]/.exec(line);
      if (m && !m[1].startsWith('node:') && !existsSync(join(repo, 'node_modules', m[1])))
        out.push({ pkg: m[1], file, line: i + 1 });
    });
  return out;
}

/** The brief's distinctive terms: versions and dates, quoted text, identifiers with - _ or inner capitals. */
function termsOf(text) {
  const found = [
    ...text.matchAll(/\b\d{4}-\d{2}(?:-\d{2})?\b/g),
    ...text.matchAll(/[`'"]([^`'"\n]{3,40})[`'"]/g),
    ...text.matchAll(/\b[A-Za-z][A-Za-z0-9]*(?:[-_][A-Za-z0-9]+)+\b/g),
    ...text.matchAll(/\b[a-z]+[A-Z][A-Za-z0-9]*\b/g),
  ].map((m) => m[1] ?? m[0]);
  return [...new Set(found)];
}

function grep(all, term) {
  const out = [];
  for (const { path: file, abs } of all) {
    readFileSync(abs, 'utf8')
      .split('\n')
      .forEach((text, i) => {
        if (text.includes(term)) out.push({ file, line: i + 1, text });
      });
  }
  return out;
}

function walk(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const abs = join(dir, name);
    return statSync(abs).isDirectory() ? walk(abs) : [abs];
  });
}

async function openDatabase(file) {
  if (!existsSync(file)) return null;
  try {
    const { default: Database } = await import('better-sqlite3');
    return new Database(file, { readonly: true, fileMustExist: true });
  } catch (err) {
    process.stderr.write(`agent: cannot open ${file} (${err.message}); tables skipped\n`);
    return null;
  }
}

function render(value) {
  if (!Array.isArray(value)) return JSON.stringify(value);
  if (value.length && 'file' in value[0])
    return value.map((h) => `${h.file}:${h.line}:${h.text}`).join('\n') || '(no matches)';
  return value.map((row) => JSON.stringify(row)).join('\n') || '(0 rows)';
}

function numbered(text) {
  return text
    .split('\n')
    .map((l, i) => `${String(i + 1).padStart(5)}\t${l}`)
    .join('\n');
}

function isTest(file) {
  return /(^|\/)(test|tests|__tests__|fixtures)\//.test(file) ? 1 : 0;
}

function escape(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function count(xs) {
  const m = new Map();
  for (const x of xs) m.set(x, (m.get(x) ?? 0) + 1);
  return m;
}

function parseArgs(argv) {
  const out = {};
  for (let i = 0; i < argv.length; i += 2) {
    if (!argv[i].startsWith('--')) throw new Error(`unexpected argument ${argv[i]}`);
    out[argv[i].slice(2)] = argv[i + 1];
  }
  return out;
}

function required(name) {
  if (!args[name]) {
    process.stderr.write(`agent: --${name} is required\n`);
    process.exit(2);
  }
  return args[name];
}
