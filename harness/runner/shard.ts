import { createHash } from 'node:crypto';

/** Deterministic shard (1-based) of a cell id: the same cell lands in the same shard on every machine. */
export function shardOf(cellId: string, count: number): number {
  const h = createHash('sha256').update(cellId).digest().readUInt32BE(0);
  return (h % count) + 1;
}
