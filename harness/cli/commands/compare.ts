import type { Command } from '../command.ts';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { InputError } from '../../core/errors.ts';
import { compareRuns, loadRun, renderCompareJson, renderCompareMd, cellAnchor } from '../../compare/index.ts';
import { renderCompareHtml } from '../../compare/page.ts';
import type { Comparison } from '../../compare/types.ts';

interface CompareArgs {
  runA: string;
  runB: string;
  format: string;
  out?: string;
}

const formats = ['md', 'json', 'html'] as const;
type Format = (typeof formats)[number];

export const compareCommand: Command<CompareArgs> = {
  command: 'compare <run-a> <run-b>',
  describe: 'Compare two runs cell by cell: paired differences B − A, survival, usage, flipped cells',
  builder: (y) =>
    y
      .positional('run-a', {
        type: 'string',
        demandOption: true,
        describe: 'run directory A (the reference)',
      })
      .positional('run-b', { type: 'string', demandOption: true, describe: 'run directory B' })
      .option('format', { type: 'string', default: 'md', describe: `comma-separated: ${formats.join(',')}` })
      .option('out', {
        type: 'string',
        describe: 'write compare-<A>-vs-<B>.<format> here (default: Markdown to stdout, other formats to .)',
      }) as never,
  handler: (args) => {
    const wanted = parseFormats(args.format);
    const c = compareRuns(loadRun(args.runA), loadRun(args.runB));
    if (args.out === undefined && wanted.length === 1 && wanted[0] === 'md') {
      process.stdout.write(render(c, 'md', process.cwd()));
      return;
    }
    const dir = resolve(args.out ?? '.');
    mkdirSync(dir, { recursive: true });
    for (const f of wanted) {
      const file = join(dir, `compare-${safe(c.a.id)}-vs-${safe(c.b.id)}.${f}`);
      writeFileSync(file, render(c, f, dir));
      process.stdout.write(`${file}\n`);
    }
  },
};

const safe = (id: string) => id.replace(/[^A-Za-z0-9._-]/g, '_');

function parseFormats(text: string): Format[] {
  const list = text
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  for (const f of list)
    if (!formats.includes(f as Format))
      throw new InputError('bad_format', `--format: unknown format "${f}"; valid: ${formats.join(', ')}`);
  return list as Format[];
}

/** Files link each flipped cell to its run's report.html anchor, relative to where the file is written. */
function render(c: Comparison, f: Format, from: string): string {
  const link = (side: 'a' | 'b', _id: string, cellId: string) =>
    `${relative(from, join(c[side].dir, 'report.html')) || 'report.html'}#${encodeURIComponent(cellAnchor(cellId))}`;
  if (f === 'json') return renderCompareJson(c);
  if (f === 'html') return renderCompareHtml(c, link);
  return renderCompareMd(c, link);
}
