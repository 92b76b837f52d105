import type { ModelRequest, ModelResponse } from '../core/index.ts';

/** One request of a batch: its custom_id (the response-cache key of the call) and the vendor body. */
export interface BatchEntry {
  customId: string;
  body: unknown;
}

/** A batch's state as the vendor reports it, with its per-request counts. */
export interface BatchStatus {
  id: string;
  /** The vendor's word: Anthropic in_progress/canceling/ended; OpenAI validating/in_progress/finalizing/completed/failed/expired/cancelling/cancelled. */
  state: string;
  /** Processing is over: results (or output/error files) can be read. */
  ended: boolean;
  total: number;
  succeeded: number;
  failed: number;
  /** Requests not finished yet. */
  processing: number;
}

/** What one request of an ended batch came to. */
export type BatchOutcome =
  | { customId: string; ok: true; reply: unknown; requestId?: string }
  | {
      customId: string;
      ok: false;
      /** errored (the vendor refused or failed the request), expired (24 h window), canceled. */
      kind: 'errored' | 'expired' | 'canceled';
      reason: string;
      status?: number;
    };

/**
 * A vendor's batch protocol, through its official SDK: build a request body, create a batch, read its
 * status, read its results, and map a succeeded reply back to a ModelResponse. Only backends know a
 * vendor's batch wire format; the batching layer (batching-provider.ts) knows none.
 */
export interface BatchBackend {
  provider: 'anthropic' | 'openai';
  /** The vendor's documented size limits for one batch. */
  limits: { maxRequests: number; maxBytes: number };
  toBody(req: ModelRequest): unknown;
  /** The bytes one entry adds to the batch (the JSONL line / the request object as sent). */
  entryBytes(entry: BatchEntry): number;
  /**
   * One create call, never retried by the SDK: a create that outlasts the timeout may still have
   * created the batch, and a blind retry creates a second copy (billed twice). `tag` marks the batch
   * (OpenAI metadata) so `find` can recognise it.
   */
  create(entries: BatchEntry[], tag: string): Promise<string>;
  /**
   * After a create whose outcome is unknown (a timeout, a dropped connection, a 5xx): the vendor's
   * batch holding exactly these requests, created since `since`, from its newest-first batch list —
   * or undefined when there is none. Batches in `exclude` (already journalled) are never adopted.
   */
  find(probe: BatchProbe): Promise<string | undefined>;
  /** Create calls one submission may make, a `find` before each after the first (the provider's maxRetries + 1). */
  createAttempts: number;
  retrieve(batchId: string): Promise<BatchStatus>;
  results(batchId: string): Promise<BatchOutcome[]>;
  fromReply(
    reply: unknown,
    req: ModelRequest,
  ): Omit<ModelResponse, 'latencyMs' | 'cached' | 'retries' | 'costUsd'>;
  close(): Promise<void>;
}

/** What `find` looks for. */
export interface BatchProbe {
  customIds: readonly string[];
  tag: string;
  /** When the submission was journalled (ISO time, the local clock). */
  since: string;
  exclude: ReadonlySet<string>;
}

/** Vendor-documented limits (Anthropic Message Batches; OpenAI Batch API input file). */
export const vendorLimits = {
  anthropic: { maxRequests: 100_000, maxBytes: 256 * 1024 * 1024 },
  openai: { maxRequests: 50_000, maxBytes: 200 * 1024 * 1024 },
} as const;

export type { BatchSettings } from '../config/types.ts';

/** What the batch scheduler reports as it goes (a batch created, adopted, polled, ended). */
export interface BatchEvent extends Partial<BatchStatus> {
  provider: string;
  batchId: string;
  state: string;
}
