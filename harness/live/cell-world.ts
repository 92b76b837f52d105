import type { LiveFields, ToolCall } from '../core/index.ts';

/** A live cell whose world copy was kept (`--keep-worlds`): its row names the copy's directory. */
export function withKept<T extends { fields(calls: readonly ToolCall[]): LiveFields }>(
  cell: T,
  kept: { world_dir?: string },
): T {
  if (!kept.world_dir) return cell;
  const fields = cell.fields.bind(cell);
  return { ...cell, fields: (calls: readonly ToolCall[]) => ({ ...fields(calls), ...kept }) };
}
