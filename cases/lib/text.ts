/** Text helpers for the generators; tool output renderers live with the live tools that share them. */
export { grep, numbered, renderGrep, renderTable, type Hit } from '../../harness/live/render.ts';

/** The 1-based line of the first line containing `needle` (throws when absent: a generator bug). */
export function lineOf(text: string, needle: string): number {
  const i = text.split('\n').findIndex((l) => l.includes(needle));
  if (i < 0) throw new Error(`lineOf: "${needle}" not found`);
  return i + 1;
}

/** "a, b and c". */
export function listing(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}
