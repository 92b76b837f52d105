import { pathToFileURL } from 'node:url';
import { tsImport } from 'tsx/esm/api';

/**
 * Imports a user-supplied module by path: TypeScript (the config, case generators) through tsx's
 * scoped loader, so it loads the same whether the harness itself runs from its sources or from the
 * bundle in dist/; JavaScript natively.
 */
export async function importModule(file: string): Promise<Record<string, unknown>> {
  const url = pathToFileURL(file).href;
  if (/\.[cm]?ts$/.test(file)) return (await tsImport(url, import.meta.url)) as Record<string, unknown>;
  return (await import(url)) as Record<string, unknown>;
}
