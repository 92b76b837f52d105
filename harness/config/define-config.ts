import type { ProviderFactory, UserConfig } from './types.ts';
import type { Provider, Strategy } from '../core/index.ts';

/** Typed identity for eval.config.ts. */
export function defineConfig(config: UserConfig): UserConfig {
  return config;
}

/**
 * Typed identity for a provider factory (`providers: { gateway: { create: defineProvider(...) } }`):
 * it gets the resolved config and the provider's name, and returns the one Provider interface.
 */
export function defineProvider(factory: ProviderFactory): ProviderFactory {
  return factory;
}

export type { UserConfig, ResolvedConfig } from './types.ts';
export type { Strategy, Provider };
