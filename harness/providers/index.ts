import type { Provider } from '../types.ts';
import type { ResolvedConfig } from '../config/types.ts';
import { UnknownNameError } from '../errors.ts';
import { createSimProvider } from './sim/index.ts';

type Factory = (config: ResolvedConfig) => Promise<Provider>;

/** Every provider kind, by name (explicit registry; vendor SDKs load only when used). */
export const providerFactories: Record<string, Factory> = {
  sim: async (config) => createSimProvider(config.sim),
};

export const providerNames = () => Object.keys(providerFactories);

/** Creates each provider the config's roles use, once. */
export async function createProviders(config: ResolvedConfig): Promise<Record<string, Provider>> {
  const out: Record<string, Provider> = {};
  for (const name of new Set(Object.values(config.provider))) {
    const factory = providerFactories[name];
    if (!factory) throw new UnknownNameError('provider', name, providerNames(), 'provider');
    out[name] = await factory(config);
  }
  return out;
}
