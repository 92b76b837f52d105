import { setFlagsFromString } from 'node:v8';
import { ToolCallError } from '../errors.ts';

let linear: boolean | undefined;

/** Whether V8's linear-time regexp engine (the `l` flag) is available; enabled once, on first use. */
function linearEngine(): boolean {
  if (linear === undefined) {
    try {
      setFlagsFromString('--enable-experimental-regexp-engine');
      new RegExp('a', 'l');
      linear = true;
    } catch {
      linear = false;
    }
  }
  return linear;
}

/**
 * search_code's pattern, compiled for V8's linear-time engine: a model's pattern runs synchronously
 * over every line of the world, and on the backtracking engine `(.*.*)*y` against one 80-character
 * line never ends — it would stall every cell in flight. The linear engine, like ripgrep's, has no
 * backreferences or lookaround; such a pattern, or one that does not compile, is an error result.
 * Matching is otherwise the same (the generators record with this function too).
 */
export function searchPattern(query: string): RegExp {
  try {
    return linearEngine() ? new RegExp(query, 'l') : new RegExp(query);
  } catch (err) {
    const message = (err as Error).message;
    if (/linear time/.test(message))
      throw new ToolCallError(
        `the pattern needs backtracking (a backreference or lookaround), which search_code does not support, like ripgrep: ${message}`,
      );
    throw new ToolCallError(`invalid regular expression: ${message}`);
  }
}
