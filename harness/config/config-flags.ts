import type { ProviderName } from './types.ts';

/** CLI flags that override the file. */
export interface ConfigFlags {
  suite?: string[];
  arm?: string[];
  case?: string[];
  provider?: ProviderName;
  reps?: number;
  seed?: number;
  concurrency?: number;
  out?: string;
  cache?: boolean;
  quiet?: boolean;
  shard?: string;
  batch?: boolean;
  maxErrorRate?: number;
  mode?: string;
  sourceToolBudget?: number;
  source?: string;
  keepWorlds?: boolean;
  liveInline?: string;
}
