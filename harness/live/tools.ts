import { Ajv, type ValidateFunction } from 'ajv';
import type { ToolCall, ToolSpec } from '../core/index.ts';
import { ToolCallError } from '../core/errors.ts';
import type { WorldAccess } from './access.ts';
import { grep, numbered, renderGrep } from './render.ts';
import { runQuery } from './query.ts';
import { searchPattern } from './pattern.ts';
import { writeTools } from './write-tools.ts';
import { objectSchema, type Tool, type ToolLimits, type ToolOutcome } from './tool-kind.ts';

export type { ToolLimits, ToolOutcome };

/**
 * The live tools over a world (docs/live.md): search_code, read_file, query, read_doc, run_tests —
 * each offered only when the world has what it reads — and, in a writable world, list_files,
 * write_file and edit_file (write-tools.ts). All confined to the world (its cell's copy). A bad
 * call (unknown tool, arguments failing the JSON Schema, a path outside the world, a non-SELECT query,
 * a result over the size limit) is never thrown: it comes back as an error result the model sees.
 * These are the tools' default limits.
 */
export const defaultToolLimits: ToolLimits = {
  maxResultChars: 40_000,
  maxRows: 200,
  queryTimeoutMs: 2_000,
  searchTimeoutMs: 2_000,
};

export interface WorldTools {
  specs: ToolSpec[];
  has(name: string): boolean;
  run(call: Pick<ToolCall, 'name' | 'input'>): ToolOutcome;
}

const tools: Record<string, Tool> = {
  search_code: {
    offered: () => true,
    spec: () => ({
      name: 'search_code',
      description:
        'Search the repository for a regular expression (JavaScript syntax, case-sensitive), like `rg -n -C <context>`: every matching line with its path and line number and <context> lines around it.',
      inputSchema: objectSchema(
        {
          query: { type: 'string', minLength: 1, description: 'regular expression to search for' },
          path: {
            type: 'string',
            description: "directory or file to search under (default '.': everything)",
          },
          context: { type: 'integer', minimum: 0, maximum: 10, description: 'context lines (default 2)' },
        },
        ['query'],
      ),
    }),
    run(w, input: { query: string; path?: string; context?: number }, limits) {
      const re = searchPattern(input.query);
      const files = w.filesUnder(input.path ?? '.');
      const timeoutMs = limits.searchTimeoutMs;
      const onTimeout = () =>
        new ToolCallError(
          `the search ran past the ${timeoutMs} ms time limit and was stopped; use a more specific pattern or a path`,
        );
      return renderGrep(files, grep(files, re, { timeoutMs, onTimeout }), input.context ?? 2);
    },
  },
  read_file: {
    offered: () => true,
    spec: () => ({
      name: 'read_file',
      description:
        'Read a repository file with line numbers (`cat -n`), optionally only lines start..end. Paths are relative to the repository root.',
      inputSchema: objectSchema(
        {
          path: { type: 'string', minLength: 1 },
          range: objectSchema(
            { start: { type: 'integer', minimum: 1 }, end: { type: 'integer', minimum: 1 } },
            ['start'],
          ),
        },
        ['path'],
      ),
    }),
    run(w, input: { path: string; range?: { start: number; end?: number } }) {
      const text = w.readFile(input.path);
      if (text === undefined) return failed(`ENOENT: no such file or directory, open '${input.path}'`);
      if (!input.range) return numbered(text);
      const lines = text.split('\n');
      const { start, end = lines.length } = input.range;
      if (start > lines.length)
        throw new ToolCallError(`range starts at line ${start}; the file has ${lines.length}`);
      if (end < start) throw new ToolCallError(`range end ${end} is before its start ${start}`);
      return numbered(lines.slice(start - 1, end).join('\n'), start);
    },
  },
  query: {
    offered: (w) => w.db !== null,
    spec: (w, limits) => ({
      name: 'query',
      description: `Run one read-only SQL SELECT against the database (SQLite) and get a psql-style table. At most ${limits.maxRows} rows. Tables: ${w.tables.map((t) => `${t.name}(${t.columns.join(', ')})`).join('; ')}.`,
      inputSchema: objectSchema({ sql: { type: 'string', minLength: 1 } }, ['sql']),
    }),
    run: (w, input: { sql: string }, limits) =>
      runQuery(
        w.db!,
        input.sql,
        { ...limits, timeoutMs: limits.queryTimeoutMs },
        new Map(w.tables.map((t) => [t.name, t.rows])),
        w.execute,
      ),
  },
  read_doc: {
    offered: (w) => w.docNames.length > 0,
    spec: (w) => ({
      name: 'read_doc',
      description: `Read a document that is not in the repository (runbooks, vendor notices, design notes). Documents: ${w.docNames.join(', ')}.`,
      inputSchema: objectSchema({ name: { type: 'string', minLength: 1 } }, ['name']),
    }),
    run(w, input: { name: string }) {
      const text = w.readDoc(input.name);
      if (text === undefined)
        throw new ToolCallError(`no document "${input.name}"; documents: ${w.docNames.join(', ')}`);
      return text;
    },
  },
  run_tests: {
    offered: (w) => w.tests !== undefined,
    spec: (w) => ({
      name: 'run_tests',
      description: `Run the test suite (\`${w.tests!.command}\`) and get its output. Without a scope: the full suite.${
        w.tests!.scopes ? ` Scopes: ${Object.keys(w.tests!.scopes).join(', ')}.` : ''
      }`,
      inputSchema: objectSchema({ scope: { type: 'string', minLength: 1 } }, []),
    }),
    run(w, input: { scope?: string }) {
      const t = w.tests!;
      const scoped = input.scope === undefined ? t : t.scopes?.[input.scope];
      if (!scoped)
        throw new ToolCallError(
          `no test scope "${input.scope}"; scopes: ${Object.keys(t.scopes ?? {}).join(', ') || '(none: omit scope for the full suite)'}`,
        );
      // A writable world runs its declared command in the cell's copy; a read-only one returns the record.
      if (w.runTests) return w.runTests(input.scope);
      return { content: scoped.output, isError: scoped.exitCode !== 0 };
    },
  },
  ...writeTools,
};

export const worldToolNames = Object.keys(tools);

/** The tools a world offers, and the dispatcher that serves calls to them. */
export function createWorldTools(access: WorldAccess, limits: Partial<ToolLimits> = {}): WorldTools {
  const lim = { ...defaultToolLimits, ...limits };
  const offered = Object.entries(tools).filter(([, t]) => t.offered(access));
  const specs = offered.map(([, t]) => t.spec(access, lim));
  const names = new Set(offered.map(([n]) => n));
  return {
    specs,
    has: (name) => names.has(name),
    run(call) {
      if (!names.has(call.name))
        return failed(`unknown tool "${call.name}"; available: ${[...names].join(', ')}`);
      const problem = argumentProblem(
        call.name,
        specs.find((s) => s.name === call.name)!,
        call.input,
      );
      if (problem) return failed(problem);
      try {
        const out = tools[call.name]!.run(access, call.input, lim);
        const result = typeof out === 'string' ? { content: out, isError: false } : out;
        if (result.content.length > lim.maxResultChars)
          return failed(
            `the result is ${result.content.length} characters, over the limit of ${lim.maxResultChars}; narrow the call (a path, a line range, a more specific pattern, a WHERE clause)`,
          );
        return result;
      } catch (err) {
        if (err instanceof ToolCallError) return failed(err.message);
        // Anything else a call provokes (an engine limit, a string too long to build) is still the
        // model's to see, as an agent harness reports a tool that failed — never the cell's crash.
        return failed(`${call.name} failed: ${(err as Error).message ?? String(err)}`);
      }
    },
  };
}

/**
 * An error result. Its message may echo the call's own input (an SQL error quoting a huge query, an
 * unknown property's name, a path), so it is capped like any result: the first MAX_ERROR_CHARS
 * characters and a note of how many were cut.
 */
function failed(message: string): ToolOutcome {
  const text = `Error: ${message}`;
  if (text.length <= MAX_ERROR_CHARS) return { content: text, isError: true };
  const cut = text.length - MAX_ERROR_CHARS;
  return {
    content: `${text.slice(0, MAX_ERROR_CHARS)}… [${cut} characters of the error cut]`,
    isError: true,
  };
}

/** The longest error result (an error says what went wrong; it never needs to be long). */
export const MAX_ERROR_CHARS = 2_000;

const ajv = new Ajv({ allErrors: false, strict: false });
const validators = new Map<string, ValidateFunction>();

/** The schema's verdict on a call's arguments, as a line the model can act on (undefined when valid). */
function argumentProblem(name: string, spec: ToolSpec, input: unknown): string | undefined {
  let validate = validators.get(name);
  if (!validate) validators.set(name, (validate = ajv.compile(spec.inputSchema)));
  if (validate(input)) return undefined;
  const e = validate.errors?.[0];
  const at = e?.instancePath ? `${e.instancePath.slice(1).replace(/\//g, '.')} ` : '';
  const extra = e?.params && 'additionalProperty' in e.params ? ` "${e.params.additionalProperty}"` : '';
  return `invalid arguments for ${name}: ${at}${e?.message ?? 'invalid'}${extra}`;
}
