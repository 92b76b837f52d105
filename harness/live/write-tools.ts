import { ToolCallError } from '../core/errors.ts';
import type { WorldAccess } from './access.ts';
import { objectSchema, type Tool } from './tool-kind.ts';

/**
 * The tools of a writable world (docs/live.md), offered only there: list_files, write_file and
 * edit_file, each confined to the cell's own copy of the repository (write.ts). Their results name
 * the model's own paths, never the copy's directory.
 */
export const writeTools: Record<string, Tool> = {
  list_files: {
    offered: (w) => w.write !== undefined,
    spec: () => ({
      name: 'list_files',
      description: "List the repository's files (paths relative to its root), under a directory if given.",
      inputSchema: objectSchema({ path: { type: 'string', minLength: 1 } }, []),
    }),
    run(w, input: { path?: string }) {
      const paths = Object.keys(w.filesUnder(input.path ?? '.')).sort();
      return paths.length ? paths.join('\n') : `(no files under ${input.path ?? '.'})`;
    },
  },
  write_file: {
    offered: (w) => w.write !== undefined,
    spec: () => ({
      name: 'write_file',
      description:
        'Write a repository file (created, or replaced whole). Paths are relative to the repository root.',
      inputSchema: objectSchema({ path: { type: 'string', minLength: 1 }, content: { type: 'string' } }, [
        'path',
        'content',
      ]),
    }),
    run(w, input: { path: string; content: string }) {
      const { created } = w.write!(input.path, input.content);
      return `${created ? 'File created' : 'File written'}: ${input.path} (${lineCount(input.content)} lines)`;
    },
  },
  edit_file: {
    offered: (w) => w.write !== undefined,
    spec: () => ({
      name: 'edit_file',
      description:
        'Edit a repository file: replace old_string (which must occur exactly once) with new_string, or append text at its end.',
      inputSchema: objectSchema(
        {
          path: { type: 'string', minLength: 1 },
          old_string: { type: 'string', minLength: 1 },
          new_string: { type: 'string' },
          append: { type: 'string', minLength: 1 },
        },
        ['path'],
      ),
    }),
    run(w, input: { path: string; old_string?: string; new_string?: string; append?: string }) {
      const replacing = input.old_string !== undefined || input.new_string !== undefined;
      if (replacing === (input.append !== undefined))
        throw new ToolCallError('give either old_string and new_string, or append');
      if (replacing && (input.old_string === undefined || input.new_string === undefined))
        throw new ToolCallError('old_string and new_string go together');
      const text = w.readFile(input.path);
      if (text === undefined) throw new ToolCallError(`ENOENT: no such file '${input.path}'`);
      if (input.append !== undefined) {
        const joined = text === '' || text.endsWith('\n') ? text : `${text}\n`;
        w.write!(input.path, `${joined}${input.append.endsWith('\n') ? input.append : `${input.append}\n`}`);
        return `Appended ${lineCount(input.append)} lines to ${input.path}.`;
      }
      const at = text.indexOf(input.old_string!);
      if (at < 0) throw new ToolCallError(`old_string does not occur in ${input.path}`);
      if (text.indexOf(input.old_string!, at + 1) >= 0)
        throw new ToolCallError(`old_string occurs more than once in ${input.path}; give more context`);
      w.write!(input.path, text.slice(0, at) + input.new_string! + text.slice(at + input.old_string!.length));
      return `Applied edit to ${input.path} (${lineCount(input.old_string!)} lines replaced with ${lineCount(input.new_string!)}).`;
    },
  },
};

function lineCount(text: string): number {
  return text === '' ? 0 : text.replace(/\n$/, '').split('\n').length;
}
