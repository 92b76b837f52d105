import type { Provider } from '../types.ts';
import type { ResolvedConfig } from '../config/types.ts';
import { UnknownNameError } from '../errors.ts';
import { createSimProvider } from './sim/index.ts';

type Factory = (config: ResolvedConfig) => Promise<Provider>;

/** Every provider kind, by name (explicit registry; vendor SDKs load only when used). */
export const providerFactories: Record<string, Factory> = {
  sim: async (config) => createSimProvider(config.sim),
  anthropic: async (config) => (await import('./anthropic.ts')).createAnthropicProvider(config),
  openai: async (config) => (await import('./openai.ts')).createOpenAIProvider(config),
};

export const providerNames = () => Object.keys(providerFactories);

/** Creates each provider the config's roles use, once. */
export async function createProviders(config: ResolvedConfig): Promise<Record<string, Provider>> {
  const out: Record<string, Provider> = {};
  try {
    for (const name of new Set(Object.values(config.provider))) {
      const factory = providerFactories[name];
      if (!factory) throw new UnknownNameError('provider', name, providerNames(), 'provider');
      out[name] = await factory(config);
    }
  } catch (err) {
    // A later provider failed (e.g. its key is missing): release the sockets of those already made.
    await Promise.all(Object.values(out).map((p) => p.close?.()));
    throw err;
  }
  return out;
}
