import type { ReadmeFigure } from './figures.ts';

/** One figure as the README has it and as the run gives it. */
export interface FigureCheck {
  anchor: string;
  /** 1-based README line, null when the anchor is not on exactly one line. */
  line: number | null;
  /** What the README says in each slot (null when the template is not where the figure says). */
  readme: Record<string, string> | null;
  run: Record<string, string>;
  /** The slots whose README text differs from the run's. */
  differs: string[];
  /** Why the figure could not be read off the README, if it could not. */
  problem: string | null;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The template as a pattern: its text literally, each {slot} a lazy capture (a slot at an edge anchors it). */
export function templatePattern(template: string): { re: RegExp; slots: string[] } {
  const slots: string[] = [];
  const parts = template.split(/\{(\w+)\}/);
  const src = parts.map((p, i) => (i % 2 === 0 ? escape(p) : (slots.push(p), '(.+?)'))).join('');
  const head = parts[0] === '' ? '^' : '';
  const tail = parts.length > 1 && parts[parts.length - 1] === '' ? '$' : '';
  return { re: new RegExp(`${head}${src}${tail}`), slots };
}

/** The template with its slots filled. */
export const fill = (f: ReadmeFigure) =>
  f.template.replace(/\{(\w+)\}/g, (_, k: string) => f.values[k] ?? `{${k}}`);

/** Where a figure's text is on its line: the whole line, or one cell of a table row (trimmed). */
function span(line: string, column: number | undefined): { start: number; text: string } | null {
  if (column === undefined) return { start: 0, text: line };
  let start = 0;
  for (let c = 0; c < column; c++) {
    const bar = line.indexOf('|', start);
    if (bar < 0) return null;
    start = bar + 1;
  }
  const end = line.indexOf('|', start);
  const raw = line.slice(start, end < 0 ? undefined : end);
  const lead = raw.length - raw.trimStart().length;
  return { start: start + lead, text: raw.trim() };
}

interface Located {
  check: FigureCheck;
  /** Where the matched text starts on the line and how long it is. */
  at: { index: number; length: number } | null;
}

function locate(lines: readonly string[], f: ReadmeFigure): Located {
  const base = { anchor: f.anchor, run: f.values, differs: [] as string[] };
  const at = lines.flatMap((l, i) => (l.includes(f.anchor) ? [i] : []));
  if (at.length !== 1)
    return {
      check: { ...base, line: null, readme: null, problem: `anchor on ${at.length} lines` },
      at: null,
    };
  const line = lines[at[0]!]!;
  const where = span(line, f.column);
  const { re, slots } = templatePattern(f.template);
  const m = where ? re.exec(where.text) : null;
  if (!where || !m)
    return {
      check: { ...base, line: at[0]! + 1, readme: null, problem: 'the template is not where the figure is' },
      at: null,
    };
  const said = Object.fromEntries(slots.map((s, i) => [s, m[i + 1]!.trim()]));
  const differs = slots.filter((s) => said[s] !== f.values[s]);
  return {
    check: { ...base, line: at[0]! + 1, readme: said, differs, problem: null },
    at: { index: where.start + m.index, length: m[0].length },
  };
}

/** Reads every figure off the README and compares it with the run's. */
export function checkFigures(readme: string, figures: readonly ReadmeFigure[]): FigureCheck[] {
  const lines = readme.split('\n');
  return figures.map((f) => locate(lines, f).check);
}

/** The README with every figure that differs rewritten from the run (the rest of each line kept). */
export function refreshReadme(readme: string, figures: readonly ReadmeFigure[]): string {
  const lines = readme.split('\n');
  for (const f of figures) {
    const { check, at } = locate(lines, f);
    if (!at || check.differs.length === 0) continue;
    const line = lines[check.line! - 1]!;
    lines[check.line! - 1] = line.slice(0, at.index) + fill(f) + line.slice(at.index + at.length);
  }
  return lines.join('\n');
}
