import { setFlagsFromString } from 'node:v8';
import { ToolCallError } from '../core/errors.ts';

let linear: boolean | undefined;

/**
 * Whether V8's linear-time regexp engine is available; enabled once, on first use, with the switch
 * that hands a match to it when the backtracking engine passes its backtrack limit. That switch is
 * process-wide but changes no result: only a match that would otherwise backtrack for minutes moves
 * to the engine that cannot, and everything else keeps the (much faster) backtracking engine.
 */
function linearEngine(): boolean {
  if (linear === undefined) {
    try {
      setFlagsFromString('--enable-experimental-regexp-engine');
      setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');
      new RegExp('a', 'l');
      linear = true;
    } catch {
      linear = false;
    }
  }
  return linear;
}

/**
 * search_code's pattern. A model's pattern runs synchronously over every line of the world, and on
 * the backtracking engine alone `(.*.*)*y` against one 80-character line never ends — it would stall
 * every cell in flight. So the pattern must be one the linear-time engine can run (checked by
 * compiling it for that engine: no backreferences or lookaround, which ripgrep's default engine lacks
 * too), and a match that backtracks too long finishes there. The linear engine is not used for every
 * match: on ordinary patterns it is ~100× slower, and the generators record with this function too.
 */
export function searchPattern(query: string): RegExp {
  try {
    if (linearEngine()) new RegExp(query, 'l');
    return new RegExp(query);
  } catch (err) {
    const message = (err as Error).message;
    if (/linear time/.test(message))
      throw new ToolCallError(
        `the pattern needs backtracking (a backreference or lookaround), which search_code does not support, like ripgrep: ${message}`,
      );
    throw new ToolCallError(`invalid regular expression: ${message}`);
  }
}
