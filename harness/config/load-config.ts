import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError } from '../core/errors.ts';
import { importModule } from './import-module.ts';
import { resolveConfig } from './resolve-config.ts';
import type { ResolvedConfig, UserConfig } from './types.ts';
import type { ConfigFlags } from './config-flags.ts';

const candidates = ['eval.config.ts', 'eval.config.mts', 'eval.config.js', 'eval.config.mjs'];

/** Finds and loads the config file (TypeScript via tsx), then resolves it with the CLI flags. */
export async function loadConfig(
  path: string | undefined,
  flags: ConfigFlags,
  cwd = process.cwd(),
): Promise<ResolvedConfig> {
  const file = path ? resolve(cwd, path) : candidates.map((c) => resolve(cwd, c)).find((c) => existsSync(c));
  if (path && !existsSync(file!)) throw new ConfigError(path, '(file)', 'config file not found');
  if (!file) return resolveConfig({}, flags, null);
  let mod: { default?: unknown };
  try {
    mod = await importModule(file);
  } catch (err) {
    throw new ConfigError(file, '(file)', `could not be loaded: ${firstLine((err as Error).message)}`, {
      cause: err,
    });
  }
  const config = unwrapDefault(mod);
  if (config === undefined)
    throw new ConfigError(file, 'default export', 'missing; export default defineConfig({...})');
  return resolveConfig(config as UserConfig, flags, file);
}

/** The line of an error message that says what is wrong (esbuild's, via tsx, opens with a count). */
function firstLine(message: string): string {
  const lines = message.split('\n').filter((l) => l.trim() !== '');
  return (
    lines.find((l) => !/^(Transform|Build) failed with \d+ errors?:?$/.test(l.trim())) ?? lines[0] ?? message
  );
}

/** A config file outside an ESM package is compiled as CommonJS; its default export then sits one level down. */
function unwrapDefault(mod: { default?: unknown }): unknown {
  const d = mod.default as { default?: unknown; __esModule?: boolean } | undefined;
  if (d && typeof d === 'object' && d.__esModule === true) return d.default;
  return d;
}
