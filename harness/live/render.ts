/**
 * Tool output the way common tools print it (ripgrep, cat -n, psql). The live tools (harness/live/tools.ts)
 * and the case generators render through these same functions, so a recorded tool result and a live one
 * over the same world are the same text.
 */

export interface Hit {
  path: string;
  line: number;
  text: string;
}

/**
 * Every line of every file matching the pattern (ripgrep-style, case-sensitive), in path order. With
 * `timeoutMs`, a search still running past it throws `onTimeout()`'s error (the clock is read every
 * 64 lines: one line's match is linear in its length, so no single line runs away).
 */
export function grep(
  files: Record<string, string>,
  pattern: RegExp,
  deadline?: { timeoutMs: number; onTimeout: () => Error },
): Hit[] {
  const hits: Hit[] = [];
  const end = deadline ? performance.now() + deadline.timeoutMs : Infinity;
  let n = 0;
  for (const path of Object.keys(files).sort()) {
    files[path]!.split('\n').forEach((text, i) => {
      if (++n % 64 === 0 && performance.now() >= end) throw deadline!.onTimeout();
      if (pattern.test(text)) hits.push({ path, line: i + 1, text });
    });
  }
  return hits;
}

/** `rg -n -C <context>` output: matches with context lines, groups separated by `--`. */
export function renderGrep(files: Record<string, string>, hits: Hit[], context = 0): string {
  if (hits.length === 0) return 'No matches found.';
  const out: string[] = [];
  const split = new Map<string, string[]>();
  let lastPath = '';
  let lastLine = -1;
  for (const h of hits) {
    let lines = split.get(h.path);
    if (!lines) split.set(h.path, (lines = files[h.path]!.split('\n')));
    const from = Math.max(1, h.line - context);
    const to = Math.min(lines.length, h.line + context);
    if (h.path !== lastPath || from > lastLine + 1) {
      if (out.length) out.push('--');
    }
    for (let n = Math.max(from, h.path === lastPath ? lastLine + 1 : from); n <= to; n++) {
      out.push(`${h.path}${n === h.line ? ':' : '-'}${n}${n === h.line ? ':' : '-'}${lines[n - 1]}`);
    }
    lastPath = h.path;
    lastLine = to;
  }
  const files_ = new Set(hits.map((h) => h.path)).size;
  out.push('', `${hits.length} matches in ${files_} files`);
  return out.join('\n');
}

/** A file as a read tool returns it: line numbers, tab, text. */
export function numbered(text: string, from = 1): string {
  return text
    .split('\n')
    .map((l, i) => `${String(i + from).padStart(6)}\t${l}`)
    .join('\n');
}

/** A psql-style table. */
export function renderTable(columns: string[], rows: (string | number | null)[][]): string {
  const cell = (v: string | number | null) => (v === null ? '' : String(v));
  const widths = columns.map((c, i) => Math.max(c.length, ...rows.map((r) => cell(r[i] ?? null).length)));
  const line = (vals: string[]) => ' ' + vals.map((v, i) => v.padEnd(widths[i]!)).join(' | ');
  const out = [line(columns), '-' + widths.map((w) => '-'.repeat(w)).join('-+-') + '-'];
  for (const r of rows) out.push(line(r.map((v) => cell(v ?? null))));
  out.push(`(${rows.length} row${rows.length === 1 ? '' : 's'})`);
  return out.join('\n');
}
