import type { Assertion, ModelRequest } from '../../core/index.ts';
import { locatorOf, readLines, searchLines, type ActContext } from './act-context.ts';
import type { Lead } from './act-leads.ts';
import { workLines } from './act-code.ts';
import { sayAsFact, sayClaim, type SimVoice } from './wordings.ts';
import { claimContentIn } from '../../core/text/reading.ts';

/**
 * The acting sim's final report (docs/live.md). It states a labelled assertion only when its own
 * calls ground it — the labels stand in for the reasoning a model would do over what it read, and
 * are never consulted while choosing calls (act.ts):
 * - with provenance: every entry seen — `path:line` on a line a read or a search hit showed,
 *   `table.column` in a query result's header, a bare path read or shown by a search;
 * - without: every place its statement names seen (a path, a table column, a kind of document such as
 *   the changelog); a statement naming none is the agent's own reflection on what it read, written
 *   only when its results are about it and the budget did not run out first (`grounded`);
 * - nothing at all when none of its calls returned a result.
 * Then what it searched, what it did not (leads left, places it could not reach) and, when the budget
 * ran out, that it did. Each claim is worded from the sim's bank (wordings.ts, seeded by the request
 * seed and the assertion id), or with `sim: { paraphrase: false }` as the labelled statement.
 */
export function simActReport(
  req: ModelRequest,
  ctx: ActContext,
  o: { left: Lead[]; exhausted: boolean; unsaid?: ReadonlySet<string> },
  voice: SimVoice,
): string {
  const line = (a: Assertion) =>
    `- ${a.kind === 'confident' ? sayAsFact(a, req.seed, voice) : sayClaim(a, req.seed, voice)}`;
  const made = groundedClaims(req, ctx, o.exhausted).filter((a) => !o.unsaid?.has(a.id));
  const confident = made.filter((a) => a.kind === 'confident');
  const caveats = made.filter((a) => a.kind !== 'confident');
  const notSearched = [
    ...o.left.map((l) => locatorOf({ id: '', ...l.call })),
    ...unreachablePlaces(ctx).map((p) => p.text),
  ];
  const lines = ['Findings:', ''];
  lines.push(...(confident.length ? confident.map(line) : ['- Nothing I can state with a source yet.']));
  if (caveats.length) lines.push('', 'Caveats:', '', ...caveats.map(line));
  const work = workLines(ctx);
  if (work.length) lines.push('', ...work);
  lines.push('');
  if (o.exhausted)
    lines.push(
      'I ran out of tool calls before I was done; what is listed under "Not searched" is unchecked.',
    );
  lines.push(`Searched: ${ctx.history.map((s) => locatorOf(s.call)).join('; ') || 'nothing'}.`);
  lines.push(`Not searched: ${[...new Set(notSearched)].join('; ') || 'nothing I know of'}.`);
  return lines.join('\n');
}

/** The labelled claims the sim's own results ground so far (the rules above). */
export function groundedClaims(req: ModelRequest, ctx: ActContext, exhausted: boolean): Assertion[] {
  const seen = seenPlaces(ctx);
  return (req.sim?.assertions ?? []).filter((a) => grounded(a, seen, exhausted, ctx));
}

interface Seen {
  paths: Set<string>;
  lines: Map<string, Set<number>>;
  /** table.column for every column a query result showed. */
  columns: Set<string>;
  columnNames: Set<string>;
}

function seenPlaces(ctx: ActContext): Seen {
  const s: Seen = { paths: new Set(), lines: new Map(), columns: new Set(), columnNames: new Set() };
  const saw = (path: string, n: number) => {
    s.paths.add(path);
    let set = s.lines.get(path);
    if (!set) s.lines.set(path, (set = new Set()));
    set.add(n);
  };
  for (const st of ctx.history) {
    if (st.isError) continue;
    const input = (st.call.input ?? {}) as Record<string, unknown>;
    if (st.call.name === 'search_code') for (const l of searchLines(st.result)) saw(l.path, l.line);
    if (st.call.name === 'read_file') {
      s.paths.add(String(input.path));
      for (const l of readLines(st.result)) saw(String(input.path), l.line);
    }
    if (st.call.name === 'read_doc') s.paths.add(String(input.name));
    // A file it wrote whole (a writable world): it knows every line it wrote.
    if (st.call.name === 'write_file')
      String(input.content ?? '')
        .split('\n')
        .forEach((_, i) => saw(String(input.path), i + 1));
    if (st.call.name === 'query') {
      const table = /\bfrom\s+"?(\w+)/i.exec(String(input.sql))?.[1] ?? '';
      for (const c of (st.result.split('\n')[0] ?? '')
        .split('|')
        .map((x) => x.trim())
        .filter(Boolean)) {
        s.columns.add(`${table}.${c}`);
        s.columnNames.add(c);
      }
    }
  }
  return s;
}

/**
 * Whether its own tool results support stating the claim (issue 29 item 4). A child whose calls all
 * failed or that made none states nothing. A claim with provenance: every entry seen. One naming
 * places: every place seen. One naming none (a hedge, an assumption, an open question — the agent's
 * reflection on what it read): only when what it read is about that claim — every identifier of the
 * claim, and at least half of its content words, occur in its successful results — and the budget
 * did not run out first. `hints.assertions` holds the labels of every child of a multi-child case;
 * this is what keeps a child from stating another child's claim about a place it never looked at.
 */
function grounded(a: Assertion, seen: Seen, exhausted: boolean, ctx: ActContext): boolean {
  const results = ctx.history.filter((s) => !s.isError);
  if (results.length === 0) return false;
  if (a.provenance?.length) return a.provenance.every((p) => placeSeen(p, seen));
  const named = namedPlaces(a.statement, seen);
  if (named.length > 0) return named.every((p) => p);
  if (exhausted) return false;
  const read = claimContentIn(results.map((s) => s.result).join('\n'), a);
  return read.ids && read.words >= 0.5;
}

function placeSeen(p: string, seen: Seen): boolean {
  const at = /^(.+):(\d+)$/.exec(p);
  if (at) return seen.lines.get(at[1]!)?.has(Number(at[2])) ?? false;
  if (/^\w+\.\w+$/.test(p) && !p.includes('/') && !/\.(ts|js|md|sql|json|ya?ml|py|go|rs)$/.test(p))
    return seen.columns.has(p);
  return seen.paths.has(p);
}

/** For each place a statement names (a path, a column, a kind of document): whether it was seen. */
function namedPlaces(statement: string, seen: Seen): boolean[] {
  const out: boolean[] = [];
  for (const m of statement.matchAll(/\b[\w.-]+(?:\/[\w.-]+)+\.\w+\b/g)) out.push(seen.paths.has(m[0]));
  const words = new Set(statement.toLowerCase().match(/[a-z_][a-z0-9_]*/g) ?? []);
  for (const w of words) {
    if (w.includes('_') && /^[a-z]+(_[a-z0-9]+)+$/.test(w)) out.push(seen.columnNames.has(w));
    if (['changelog', 'readme', 'runbook'].includes(w))
      out.push([...seen.paths].some((p) => p.toLowerCase().includes(w)));
  }
  return out;
}

/**
 * Places its results say it cannot reach from here: a file it tried and that is not there, an
 * environment variable, another repository. `probe` is what an extra look would search for.
 */
export function unreachablePlaces(ctx: ActContext): { text: string; probe: string }[] {
  const out = new Map<string, string>();
  for (const s of ctx.history) {
    if (s.call.name === 'read_file' && s.isError && /ENOENT/.test(s.result)) {
      const p = String((s.call.input as { path?: unknown }).path);
      const pkg = /^node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(p)?.[1];
      out.set(pkg ? `${pkg} (not in the repository)` : `${p} (not in the repository)`, pkg ?? p);
    }
    if (s.isError) continue;
    for (const m of s.result.matchAll(/process\.env\.([A-Z][A-Z0-9_]+)/g))
      out.set(`the deploy environment (${m[1]})`, m[1]!);
    for (const m of s.result.matchAll(/\b(?:the )?([a-z][\w-]*) repository(?: \(([^)]+)\))?/g))
      if (!['this', 'the', 'our', 'a'].includes(m[1]!)) out.set(`the ${m[1]} repository`, m[2] ?? m[1]!);
  }
  return [...out].map(([text, probe]) => ({ text, probe }));
}
