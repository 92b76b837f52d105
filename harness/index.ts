/**
 * The public API: `import { defineConfig, defineStrategy } from 'handoff-eval'`. Kept light (no runner,
 * no report renderers) because config files import it, sometimes compiled as CommonJS.
 */
export { defineConfig } from './config/define-config.ts';
export { resolveConfig } from './config/resolve-config.ts';
export { defineStrategy } from '../strategies/define.ts';
export { strategies } from '../strategies/index.ts';
export type * from './types.ts';
export type {
  UserConfig,
  ResolvedConfig,
  ProviderName,
  ModelSpec,
  GateThresholds,
  SuiteSelection,
  SourceMode,
} from './config/types.ts';
