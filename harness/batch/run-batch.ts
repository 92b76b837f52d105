import type { Provider } from '../core/index.ts';
import type { ResolvedConfig } from '../config/types.ts';
import { InputError } from '../core/errors.ts';
import {
  batchSettingsOf,
  createBatchBackend,
  createBatchingProvider,
  isBatchable,
  batchableProviders,
} from './batching-provider.ts';
import type { BatchScheduler } from './scheduler.ts';
import type { BatchEvent } from './scheduler.ts';

export interface BatchRunOptions {
  dir: string;
  retryErrors: boolean;
  detach: boolean;
  /** The run's controller: aborted when the run detaches. */
  stop: AbortController;
  onEvent?: (e: BatchEvent) => void;
}

export interface BatchRun {
  providers: Record<string, Provider>;
  /** The provider names whose calls are batched (their calls are not limited by `concurrency`). */
  batched: Set<string>;
  /** Requests this process submitted, over every batched provider. */
  submitted(): number;
  /** The run stopped itself with batches still running (--detach). */
  detached(): boolean;
}

/**
 * `run --batch`: the providers a role uses that can batch are served through their batch APIs; the
 * sim (which answers in-process) stays as it is. A run with nothing to batch is bad input (exit 2).
 */
export function checkBatchable(config: ResolvedConfig): void {
  const used = new Set(Object.values(config.provider));
  if (![...used].some(isBatchable))
    throw new InputError(
      'batch_unsupported',
      `--batch: provider ${[...used].join(', ')} cannot batch (only ${batchableProviders.join(', ')} have batch APIs; the sim answers in-process)`,
    );
}

/** Before anything is created: the run can batch, and every `providers.<name>.batch` field is valid. */
export function checkBatchSettings(config: ResolvedConfig): void {
  checkBatchable(config);
  for (const name of new Set(Object.values(config.provider)))
    if (isBatchable(name)) batchSettingsOf(config, name);
}

export async function wrapForBatch(
  config: ResolvedConfig,
  providers: Record<string, Provider>,
  o: BatchRunOptions,
): Promise<BatchRun> {
  checkBatchable(config);
  const out: Record<string, Provider> = { ...providers };
  const schedulers: BatchScheduler[] = [];
  let detached = false;
  const onDetach = () => {
    detached = true;
    o.stop.abort();
  };
  for (const [name, inner] of Object.entries(providers)) {
    if (!isBatchable(name)) continue;
    const backend = await createBatchBackend(name, config);
    const p = createBatchingProvider(inner, backend, {
      dir: o.dir,
      detach: o.detach,
      onEvent: o.onEvent,
      onDetach,
      signal: o.stop.signal,
      settings: batchSettingsOf(config, name),
      retryFailed: o.retryErrors,
      prices: config.prices,
    });
    schedulers.push(p.scheduler);
    out[name] = p;
  }
  return {
    providers: out,
    batched: new Set(Object.keys(providers).filter(isBatchable)),
    submitted: () => schedulers.reduce((n, s) => n + s.submitted, 0),
    detached: () => detached,
  };
}
