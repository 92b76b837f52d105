import type { ToolCall } from '../../core/index.ts';
import { readLines, searchLines, type ActContext } from './act-context.ts';

/**
 * Where the acting sim looks next (docs/live.md, "The sim's tool policy"): leads read off its own
 * context by fixed rules — what the brief names, then what results reveal. Tier 1 comes from the
 * brief and is always followed; tiers 2 and 3 are revealed by results and followed with the
 * documented probability `followRevealedLead` (act.ts).
 *
 * From the brief:
 * - B1 terms — a version like 2023-10 (not part of a date), a header like Paylane-Version, a
 *   CONSTANT_CASE name, anything in backticks → search_code for it (tier 1);
 * - B2 a table the query tool lists, named in the brief → query it whole (tier 1);
 * - B3 a file path → read_file; B4 a document read_doc lists, named in the brief → read_doc (tier 1);
 * - B5 a kind of document (changelog, readme, runbook, guide, notice, spec) → read the file whose
 *   name contains it once a result shows one (tier 2), or the read_doc document so named (tier 1);
 * - B6 only when B1–B4 give nothing (a brief in plain words: "go through the adapters: how each resolves
 *   the Paylane version"): its subject — each proper name (a capitalised word not opening a sentence)
 *   → search_code for it in any case; the risk words it uses (fallback, default, …) → one search for
 *   them (tier 1). A brief with neither gives no lead, and the sim reports without a call. Not in a
 *   writable world, where the agent lists the repository first (act-code.ts, W1).
 * - B7 only when B2 names no table: a table the brief's words describe — its name shares a word with
 *   the brief and one of its columns another (singular or plural, names split on `_`: "which
 *   merchants" ↔ merchant_config, "the adapters" ↔ its adapter column) → query it whole (tier 1);
 *   every such table the query tool lists, in its order, after B6's searches. Only what the tool's
 *   description lists is matched: names and columns, never rows.
 * From results:
 * - R1 a search line with a risk word (fallback, default, override, hardcoded) next to a term it is
 *   after, in a file under a directory the brief names (anywhere, if it names none) → read that file (tier 2);
 * - R2 a name containing a risk word on a line of a file it read, next to a brief term → search for it (tier 3);
 * - R3 code under a brief-named directory importing from outside the repository → try to read the
 *   package (tier 3); a failed read becomes a place it could not search;
 * - R4 values of a queried column named after a brief-named directory (adapter ↔ adapters/) that no
 *   path it has seen accounts for → search that directory for the value (tier 2).
 * Places its results say are elsewhere (an environment variable, another repository, a file that is
 * not there) are noted for coverage.not_searched, not searched.
 */
export interface Lead {
  key: string;
  tier: 1 | 2 | 3;
  call: Omit<ToolCall, 'id'>;
  /** The agent's reason, narrated with the call. */
  why: string;
}

const RISK = /fall(?:s|ing)?[ _-]?back|default|overrid(?:e|den)|hard-?coded/i;
const DOC_KINDS = ['changelog', 'readme', 'runbook', 'guide', 'notice', 'spec'];

export function leadKey(call: Pick<ToolCall, 'name' | 'input'>): string {
  const i = (call.input ?? {}) as Record<string, unknown>;
  const arg = i.query ?? i.path ?? i.sql ?? i.name ?? i.scope ?? '';
  const scope = call.name === 'search_code' && i.path && i.path !== '.' ? ` in ${String(i.path)}` : '';
  return `${call.name}:${String(arg).replace(/\s+/g, ' ').trim()}${scope}`;
}

export function briefTerms(brief: string): string[] {
  const found: { at: number; term: string }[] = [];
  const add = (re: RegExp, group = 0) => {
    for (const m of brief.matchAll(re)) found.push({ at: m.index!, term: m[group]! });
  };
  add(/(?<![\d-])\d{4}-\d{2}(?![\d-])/g);
  add(/\b[A-Z][a-z]+(?:-[A-Z][a-z]+)+\b/g);
  add(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g);
  add(/`([^`\n]+)`/g, 1);
  return unique(found.sort((a, b) => a.at - b.at).map((f) => f.term));
}

export function briefDirs(brief: string): string[] {
  return unique([...brief.matchAll(/(?<![\w/.-])([A-Za-z][\w.-]*\/)(?=[\s,.;:)]|$)/g)].map((m) => m[1]!));
}

/** Every lead the context shows, in the order they appear (the policy filters out what it did). */
export function leadsOf(ctx: ActContext): Lead[] {
  const out: Lead[] = [];
  const push = (tier: Lead['tier'], call: Lead['call'], why: string) => {
    if (ctx.tools.has(call.name)) out.push({ key: leadKey(call), tier, call, why });
  };
  const terms = briefTerms(ctx.brief);
  const dirs = briefDirs(ctx.brief);
  const words = new Set(ctx.brief.toLowerCase().match(/[a-z_][a-z0-9_]*/g) ?? []);
  for (const t of terms) push(1, search(t), `${t} is named in the brief; finding every place it appears.`);
  for (const [table, cols] of ctx.tables)
    if (words.has(table.toLowerCase()))
      push(1, wholeTable(table, cols), `The brief names ${table}; reading it whole.`);
  for (const m of ctx.brief.matchAll(/\b[\w.-]+(?:\/[\w.-]+)+\.\w+\b/g))
    push(1, { name: 'read_file', input: { path: m[0] } }, `The brief names ${m[0]}.`);
  for (const d of ctx.docs)
    if (ctx.brief.includes(d) || DOC_KINDS.some((k) => words.has(k) && d.toLowerCase().includes(k)))
      push(1, { name: 'read_doc', input: { name: d } }, `The brief points at the document ${d}.`);
  // A coding world's agent lists the repository instead (act-code.ts, W1).
  if (out.length === 0 && !ctx.tools.has('list_files')) subjectLeads(ctx.brief, push);
  if (![...ctx.tables.keys()].some((t) => words.has(t.toLowerCase()))) describedTableLeads(ctx, words, push);
  const seen = seenPaths(ctx);
  for (const k of DOC_KINDS)
    if (words.has(k))
      for (const p of seen)
        if (basename(p).toLowerCase().includes(k))
          push(2, { name: 'read_file', input: { path: p } }, `The brief asks for the ${k}; ${p} is it.`);
  revealedLeads(ctx, terms, dirs, seen, push);
  return out;
}

type Push = (tier: Lead['tier'], call: Lead['call'], why: string) => void;

function wholeTable(table: string, cols: string[]): Lead['call'] {
  return { name: 'query', input: { sql: `SELECT * FROM ${table} ORDER BY ${cols[0]}` } };
}

/**
 * B7: every table the query tool lists whose name shares a word with the brief and one of whose
 * columns another word of it. Words are compared singular (a trailing `s` dropped), table and column
 * names split on `_`, words under three letters ignored (`id`, `at`).
 */
function describedTableLeads(ctx: ActContext, briefWords: Set<string>, push: Push): void {
  const brief = new Set([...briefWords].map(singular).filter((w) => w.length >= 3));
  for (const [table, cols] of ctx.tables) {
    const inName = parts(table).find((p) => brief.has(p));
    const inColumn = inName && cols.flatMap(parts).find((p) => p !== inName && brief.has(p));
    if (inColumn)
      push(
        1,
        wholeTable(table, cols),
        `The brief's "${inName}" and "${inColumn}" are ${table} and a column of it; reading it whole.`,
      );
  }
}

function parts(name: string): string[] {
  return name
    .toLowerCase()
    .split('_')
    .map(singular)
    .filter((p) => p.length >= 3);
}

function singular(w: string): string {
  return w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w;
}

/** B6: a brief naming nothing exact is searched for its subject — its proper names, its risk words. */
function subjectLeads(brief: string, push: Push): void {
  for (const name of properNames(brief)) {
    const q = unique([name, name.toLowerCase(), name.toUpperCase()]).join('|');
    push(
      1,
      { name: 'search_code', input: { query: q } },
      `The brief is about ${name}; finding where it appears.`,
    );
  }
  const risks = unique((brief.match(new RegExp(RISK.source, 'gi')) ?? []).map((w) => w.toLowerCase()));
  if (risks.length)
    push(
      1,
      { name: 'search_code', input: { query: risks.map(escape).join('|') } },
      `The brief asks about ${risks.join(' and ')} paths; searching for them.`,
    );
}

/** Capitalised words that do not open a sentence or a clause (after `.`, `:`, `;`, `?`, `!`). */
export function properNames(brief: string): string[] {
  const out: string[] = [];
  for (const m of brief.matchAll(/\b[A-Z][a-z]{3,}\b/g)) {
    const before = brief.slice(0, m.index).trimEnd();
    if (before === '' || /[.:;?!\n]$/.test(before)) continue;
    out.push(m[0]);
  }
  return unique(out);
}

function revealedLeads(ctx: ActContext, terms: string[], dirs: string[], seen: string[], push: Push): void {
  const inScope = (p: string) => dirs.length === 0 || dirs.some((d) => p.startsWith(d));
  const after = [...terms];
  for (const s of ctx.history) {
    if (s.isError) continue;
    if (s.call.name === 'search_code') {
      after.push(...searchedNames(s.call));
      for (const l of searchLines(s.result)) {
        const term = after.find((t) => l.text.includes(t));
        if (inScope(l.path) && RISK.test(l.text) && term)
          push(
            2,
            { name: 'read_file', input: { path: l.path } },
            `${l.path}:${l.line} has ${RISK.exec(l.text)![0]} next to ${term}; reading it.`,
          );
        if (inScope(l.path)) importLeads(l.text, push, l.path);
      }
    }
    if (s.call.name === 'read_file') {
      const path = String((s.call.input as { path?: unknown }).path ?? '');
      for (const l of readLines(s.result)) {
        if (!terms.some((t) => l.text.includes(t))) continue;
        for (const name of l.text.match(
          /\b[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+\b|\b[a-z]+(?:[A-Z][a-z0-9]*)+\b/g,
        ) ?? [])
          if (RISK.test(name))
            push(3, search(name), `${path}:${l.line} uses ${name}; checking everywhere else it is used.`);
      }
      if (inScope(path)) for (const l of readLines(s.result)) importLeads(l.text, push, path);
    }
    if (s.call.name === 'query') columnLeads(s.result, dirs, seen, push);
  }
}

function importLeads(text: string, push: Push, path: string): void {
  const m = /\bfrom\s+['"]([^'".][^'"]*)['"]/.exec(text);
  if (!m) return;
  const pkg = m[1]!.startsWith('@') ? m[1]!.split('/').slice(0, 2).join('/') : m[1]!.split('/')[0]!;
  push(
    3,
    { name: 'read_file', input: { path: `node_modules/${pkg}/package.json` } },
    `${path} imports ${pkg} from outside the repository; trying to read it.`,
  );
}

/** R4: a column named after a brief directory whose values no seen path under it accounts for. */
function columnLeads(result: string, dirs: string[], seen: string[], push: Push): void {
  const [header, , ...rows] = result.split('\n');
  const cols = (header ?? '').split('|').map((c) => c.trim());
  for (const dir of dirs) {
    const stem = dir.replace(/\/$/, '').toLowerCase();
    const col = cols.findIndex((c) => c && (c === stem || `${c}s` === stem));
    if (col < 0) continue;
    const values = unique(
      rows.map((r) => r.split('|')[col]?.trim() ?? '').filter((v) => /^[\w.-]+$/.test(v)),
    );
    for (const v of values)
      if (!seen.some((p) => p.startsWith(dir) && p.slice(dir.length).includes(v))) {
        const q = v === v.toLowerCase() ? `${v}|${v.toUpperCase()}` : v;
        push(
          2,
          { name: 'search_code', input: { query: q, path: dir.replace(/\/$/, '') } },
          `Rows have ${cols[col]} '${v}', but nothing I have seen under ${dir} is called that; searching ${dir} for it.`,
        );
      }
  }
}

/** Every path a result has shown (search hits, reads), in first-seen order. */
export function seenPaths(ctx: ActContext): string[] {
  const out: string[] = [];
  for (const s of ctx.history) {
    if (s.isError) continue;
    if (s.call.name === 'search_code') out.push(...searchLines(s.result).map((l) => l.path));
    if (s.call.name === 'read_file') out.push(String((s.call.input as { path?: unknown }).path));
  }
  return unique(out);
}

function search(term: string): Lead['call'] {
  return { name: 'search_code', input: { query: escape(term) } };
}

function escape(term: string): string {
  return term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The literal names a search looked for (its query's alternatives, unescaped). */
function searchedNames(call: ToolCall): string[] {
  const q = String((call.input as { query?: unknown }).query ?? '');
  return q
    .split('|')
    .map((x) => x.replace(/\\(.)/g, '$1'))
    .filter((x) => x.length > 2);
}

function basename(p: string): string {
  return p.slice(p.lastIndexOf('/') + 1);
}

function unique<T>(xs: T[]): T[] {
  return [...new Set(xs)];
}
