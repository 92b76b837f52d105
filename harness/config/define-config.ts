import type { UserConfig } from './types.ts';
import type { Strategy } from '../types.ts';

/** Typed identity for eval.config.ts. */
export function defineConfig(config: UserConfig): UserConfig {
  return config;
}

export type { UserConfig, ResolvedConfig } from './types.ts';
export type { Strategy };
