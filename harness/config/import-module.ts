import { isBuiltin } from 'node:module';
import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { tsImport } from 'tsx/esm/api';

/** Set by scripts/build.mjs in the bundle: dist/index.js (the public API) is next to the running code. */
declare const HANDOFF_EVAL_BUNDLE: boolean | undefined;
const bundled = typeof HANDOFF_EVAL_BUNDLE !== 'undefined' && HANDOFF_EVAL_BUNDLE;

/**
 * Imports a user-supplied module by path (the config, case generators). TypeScript is compiled here:
 * from the bundle, by esbuild — the module and its relative imports into one ES module, with
 * `handoff-eval` bound to the very modules the running CLI uses (dist/index.js) and every other package
 * left to Node, resolved from the file's own directory; from the sources, through tsx's scoped loader
 * (which also unwraps a config compiled as CommonJS, see load-config.ts). JavaScript is imported natively.
 */
export async function importModule(file: string): Promise<Record<string, unknown>> {
  const url = pathToFileURL(file).href;
  if (!/\.[cm]?ts$/.test(file)) return (await import(url)) as Record<string, unknown>;
  if (!bundled) return (await tsImport(url, import.meta.url)) as Record<string, unknown>;
  const code = await compile(file, url);
  return (await import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`)) as Record<
    string,
    unknown
  >;
}

async function compile(file: string, url: string): Promise<string> {
  const { build } = await import('esbuild');
  const api = new URL('./index.js', import.meta.url).href;
  // As if it ran from where it lies (a data: URL module has no location of its own).
  const here = { file: JSON.stringify(resolve(file)), dir: JSON.stringify(dirname(resolve(file))) };
  try {
    const result = await build({
      entryPoints: [file],
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'node',
      target: 'node20.19',
      logLevel: 'silent',
      define: {
        'import.meta.url': JSON.stringify(url),
        'import.meta.filename': here.file,
        'import.meta.dirname': here.dir,
        __filename: here.file,
        __dirname: here.dir,
      },
      plugins: [
        {
          name: 'packages-from-node',
          setup(b) {
            b.onResolve({ filter: /^[^./]/ }, async (args) => {
              if (args.pluginData === 'resolving' || args.path.startsWith('file:')) return undefined;
              if (isBuiltin(args.path)) return { path: args.path, external: true };
              if (args.path === 'handoff-eval') return { path: api, external: true };
              const r = await b.resolve(args.path, {
                kind: args.kind,
                resolveDir: args.resolveDir,
                importer: args.importer,
                pluginData: 'resolving',
              });
              if (r.errors.length) return { errors: r.errors };
              return { path: pathToFileURL(r.path).href, external: true };
            });
          },
        },
      ],
    });
    return result.outputFiles[0]!.text;
  } catch (err) {
    const first = (
      err as { errors?: { text: string; location?: { file: string; line: number; column: number } | null }[] }
    ).errors?.[0];
    if (!first) throw err;
    const at = first.location
      ? `${first.location.file}:${first.location.line}:${first.location.column + 1}: `
      : '';
    throw new Error(`${at}${first.text}`, { cause: err });
  }
}
