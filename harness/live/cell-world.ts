import type { Handoff, LiveFields, ToolCall } from '../core/index.ts';
import { budgetSpentMessage } from '../core/index.ts';
import type { WorldTools } from './tools.ts';

/** A live cell whose world copy was kept (`--keep-worlds`): its row names the copy's directory. */
export function withKept<T extends { fields(calls: readonly ToolCall[]): LiveFields }>(
  cell: T,
  kept: { world_dir?: string },
): T {
  if (!kept.world_dir) return cell;
  const fields = cell.fields.bind(cell);
  return { ...cell, fields: (calls: readonly ToolCall[]) => ({ ...fields(calls), ...kept }) };
}

/**
 * A spawned child's handoff with the world's tools next to its own (a world tool's name wins). Its
 * calls to the world's tools share the source's tool budget: a call past it is not run and gets the
 * source loop's budget-spent result; it gets budget + 2 tool rounds, as the source loop does.
 */
export function withWorldTools(h: Handoff, world: WorldTools, budget: number): Handoff {
  let used = 0;
  return {
    ...h,
    tools: [...h.tools.filter((t) => !world.has(t.name)), ...world.specs],
    toolRounds: budget + 2,
    runTool: (call) => {
      if (!world.has(call.name) && h.runTool) return h.runTool(call);
      if (used >= budget) return budgetSpentMessage(budget);
      used++;
      return world.run(call).content;
    },
  };
}
