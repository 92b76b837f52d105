import type { Provider } from '../core/index.ts';
import type { BuiltinProviderName, ProviderFactory, ResolvedConfig } from '../config/types.ts';
import { UnknownNameError } from '../core/errors.ts';

/**
 * Every built-in provider, by name (`list providers` reads it). Its keys are exactly the config's
 * `builtinProviderNames` (the compiler holds the two together: config validation sits below this
 * layer and cannot import it). Each loads on first use (vendor SDKs, the sim). A config adds its own
 * with `providers: { <name>: { create } }`.
 */
export const providerFactories: Readonly<Record<BuiltinProviderName, ProviderFactory>> = {
  sim: async (config) => (await import('./sim/index.ts')).createSimProvider(config.sim),
  anthropic: async (config) => (await import('./anthropic.ts')).createAnthropicProvider(config),
  openai: async (config) => (await import('./openai.ts')).createOpenAIProvider(config),
};

/** The config's own factory for a name, else the built-in one. */
export function providerFactory(
  config: Pick<ResolvedConfig, 'providers'>,
  name: string,
): ProviderFactory | undefined {
  return (
    config.providers[name]?.create ??
    (Object.hasOwn(providerFactories, name) ? providerFactories[name as BuiltinProviderName] : undefined)
  );
}

/** Built-in provider names, then the config's own. */
export const providerNames = (config?: Pick<ResolvedConfig, 'providers'>) => [
  ...new Set([
    ...Object.keys(providerFactories),
    ...Object.entries(config?.providers ?? {}).flatMap(([n, p]) => (p?.create ? [n] : [])),
  ]),
];

/** Creates each provider the config's roles use, once. */
export async function createProviders(config: ResolvedConfig): Promise<Record<string, Provider>> {
  const out: Record<string, Provider> = {};
  try {
    for (const name of new Set(Object.values(config.provider))) {
      const factory = providerFactory(config, name);
      if (!factory) throw new UnknownNameError('provider', name, providerNames(config), 'provider');
      out[name] = await factory(config, name);
    }
  } catch (err) {
    // A later provider failed (e.g. its key is missing): release the sockets of those already made.
    await Promise.all(Object.values(out).map((p) => p.close?.()));
    throw err;
  }
  return out;
}
