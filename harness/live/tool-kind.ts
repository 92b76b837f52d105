import type { ToolSpec } from '../core/index.ts';
import type { WorldAccess } from './access.ts';
import type { ToolLimits, ToolOutcome } from './tools.ts';

/** One tool: its schema, whether a world offers it, and what a call does. */
export interface Tool {
  spec: (w: WorldAccess, limits: ToolLimits) => ToolSpec;
  offered: (w: WorldAccess) => boolean;
  run: (w: WorldAccess, input: any, limits: ToolLimits) => string | ToolOutcome;
}

/** A JSON Schema object with these properties, these required, and no other. */
export function objectSchema(
  properties: Record<string, unknown>,
  required: string[],
): Record<string, unknown> {
  return { type: 'object', properties, required, additionalProperties: false };
}
