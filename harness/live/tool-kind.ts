import type { ToolSpec } from '../core/index.ts';
import type { WorldAccess } from './access.ts';

/** The live tools' limits (defaults in tools.ts: defaultToolLimits). */
export interface ToolLimits {
  /** A result longer than this is an error result asking for a narrower call. @default 40000 */
  maxResultChars: number;
  /** Row cap of query. @default 200 */
  maxRows: number;
  /** A live query still running after this is stopped and answered with an error. @default 2000 */
  queryTimeoutMs: number;
  /** A search still running after this is stopped and answered with an error. @default 2000 */
  searchTimeoutMs: number;
}

/** A tool's result: its text, and whether it is an error result. */
export interface ToolOutcome {
  content: string;
  isError: boolean;
}

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
