import type { ResultRow } from '../harness/core/index.ts';

/**
 * The one rule for a journal that holds more than one row for a cell (a `--retry-errors` attempt, a
 * cell journalled twice, shards merged): **the latest row per cell_id, in journal order, wins**. The
 * runner (what is done, what a resume re-runs), the reports and their rebuild, merge and the gate all
 * read rows through this function, so they cannot disagree about which attempt counts.
 *
 * Generic over what carries the row, so merge can keep track of the shard each kept row came from.
 * The kept items come in the order their cells first appeared; `superseded` counts the rows replaced
 * by a later one.
 */
export function latestPerCell<T>(
  items: readonly T[],
  cellOf: (item: T) => string,
): { latest: T[]; superseded: number } {
  const byCell = new Map<string, T>();
  for (const item of items) byCell.set(cellOf(item), item);
  return { latest: [...byCell.values()], superseded: items.length - byCell.size };
}

/** latestPerCell over result rows. */
export function latestRows(rows: readonly ResultRow[]): { rows: ResultRow[]; superseded: number } {
  const { latest, superseded } = latestPerCell(rows, (r) => r.cell_id);
  return { rows: latest, superseded };
}
