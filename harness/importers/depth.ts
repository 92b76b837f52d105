import { ImportError } from '../core/errors.ts';
import { formatPath, type JsonPath } from './json-locate.ts';

/**
 * How deep a transcript's values may nest. Real tool arguments nest a few levels (a JSON schema passed
 * as an argument, a dozen); JSON.stringify, the case schema's validator and the renderers recurse once
 * per level, and a hostile file nested thousands deep overflows the stack there (RangeError) long
 * after `import --stats` passed. 256 keeps a wide margin on both sides.
 */
export const MAX_NESTING = 256;

/** The path to the first value nested deeper than `limit`, or undefined. Iterative: it cannot overflow itself. */
export function deepPath(root: unknown, limit = MAX_NESTING): JsonPath | undefined {
  const stack: { v: unknown; path: (string | number)[] }[] = [{ v: root, path: [] }];
  while (stack.length > 0) {
    const { v, path } = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (path.length >= limit) return path;
    if (Array.isArray(v)) v.forEach((x, i) => stack.push({ v: x, path: [...path, i] }));
    else for (const [k, x] of Object.entries(v)) stack.push({ v: x, path: [...path, k] });
  }
  return undefined;
}

/** An ImportError naming the file and the field where the value nests too deep; nothing when it does not. */
export function checkNesting(file: string, value: unknown, what = ''): void {
  const path = deepPath(value);
  if (!path) return;
  // The field that holds the deep value: its first segments past the message and call that hold it.
  const head = path.slice(0, 6);
  const where = `${what}${formatPath(head)}${path.length > head.length ? '…' : ''}`;
  throw new ImportError(
    file,
    undefined,
    `${where}: nested more than ${MAX_NESTING} levels deep (real tool arguments nest a few levels; this input is broken or hostile)`,
  );
}
