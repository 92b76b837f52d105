import type http from 'node:http';
import type { MockBatch } from './mock-batch-server.ts';

/** The batch mock's wire shapes: both vendors' batch objects and result lines, multipart and JSON(L) replies. */

export type Settle = (b: MockBatch) => NonNullable<MockBatch['results']>;

export function anthropicBatch(b: MockBatch, url: string, ended: (b: MockBatch) => boolean, settle: Settle) {
  const done = ended(b);
  const counts = { processing: done ? 0 : b.lines.length, succeeded: 0, errored: 0, canceled: 0, expired: 0 };
  if (done) for (const r of settle(b)) counts[r.outcome ?? 'succeeded']++;
  return {
    id: b.id,
    type: 'message_batch',
    processing_status: done ? 'ended' : 'in_progress',
    request_counts: counts,
    created_at: new Date(b.createdAt).toISOString(),
    expires_at: new Date(b.createdAt + 86_400_000).toISOString(),
    ended_at: done ? new Date().toISOString() : null,
    archived_at: null,
    cancel_initiated_at: null,
    results_url: done ? `${url}/v1/messages/batches/${b.id}/results` : null,
  };
}

export function anthropicResultLine(r: NonNullable<MockBatch['results']>[number]): unknown {
  if (!r.outcome) return { custom_id: r.customId, result: { type: 'succeeded', message: r.reply } };
  if (r.outcome === 'errored')
    return {
      custom_id: r.customId,
      result: {
        type: 'errored',
        error: {
          type: 'error',
          error: { type: 'invalid_request_error', message: r.problem ?? 'injected error' },
        },
      },
    };
  return { custom_id: r.customId, result: { type: r.outcome } };
}

export function openaiBatch(
  b: MockBatch,
  files: Map<string, string>,
  ended: (b: MockBatch) => boolean,
  settle: Settle,
  processMs: number,
) {
  const age = Date.now() - b.createdAt;
  const done = ended(b);
  const base = {
    id: b.id,
    object: 'batch',
    endpoint: '/v1/chat/completions',
    completion_window: '24h',
    input_file_id: 'file-in',
    created_at: Math.floor(b.createdAt / 1000),
    metadata: b.metadata ?? null,
  };
  if (!done) {
    const status =
      age < 0.2 * processMs ? 'validating' : age < 0.8 * processMs ? 'in_progress' : 'finalizing';
    return { ...base, status, request_counts: { total: b.lines.length, completed: 0, failed: 0 } };
  }
  const results = settle(b);
  const out = results.filter((r) => !r.outcome);
  const bad = results.filter((r) => r.outcome);
  const outId = `file-out-${b.id}`;
  const errId = `file-err-${b.id}`;
  files.set(
    outId,
    out
      .map((r, i) =>
        JSON.stringify({
          id: `batch_req_${i}`,
          custom_id: r.customId,
          response: { status_code: 200, request_id: `req_${i}`, body: r.reply },
          error: null,
        }),
      )
      .join('\n') + '\n',
  );
  if (bad.length)
    files.set(errId, bad.map((r, i) => JSON.stringify(openaiErrorLine(r, i))).join('\n') + '\n');
  const expired = bad.some((r) => r.outcome === 'expired');
  const cancelled = bad.some((r) => r.outcome === 'canceled');
  return {
    ...base,
    status: expired ? 'expired' : cancelled ? 'cancelled' : 'completed',
    output_file_id: out.length ? outId : null,
    error_file_id: bad.length ? errId : null,
    request_counts: { total: results.length, completed: out.length, failed: bad.length },
  };
}

export function openaiErrorLine(r: NonNullable<MockBatch['results']>[number], i: number): unknown {
  if (r.outcome === 'errored')
    return {
      id: `batch_req_e${i}`,
      custom_id: r.customId,
      response: {
        status_code: 400,
        request_id: `req_e${i}`,
        body: {
          error: { message: r.problem ?? 'injected error', type: 'invalid_request_error', code: null },
        },
      },
      error: null,
    };
  const code = r.outcome === 'expired' ? 'batch_expired' : 'batch_cancelled';
  const message =
    r.outcome === 'expired'
      ? 'This request could not be executed before the completion window expired.'
      : 'This request was cancelled.';
  return { id: `batch_req_e${i}`, custom_id: r.customId, response: null, error: { code, message } };
}

/** The uploaded file of a multipart/form-data body (the SDK's files.create). */
export function multipartFile(req: http.IncomingMessage, raw: Buffer): string {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(req.headers['content-type'] ?? '');
  const b = boundary?.[1] ?? boundary?.[2];
  if (!b) return '';
  for (const part of raw.toString('utf8').split(`--${b}`)) {
    if (!/name="file"/.test(part)) continue;
    const start = part.indexOf('\r\n\r\n');
    return part.slice(start + 4).replace(/\r\n$/, '');
  }
  return '';
}

export function json(res: http.ServerResponse, status: number, payload: unknown): void {
  const text = JSON.stringify(payload);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    'request-id': 'req_batchmock',
    'x-request-id': 'req_batchmock',
  });
  res.end(text);
}

export function jsonl(res: http.ServerResponse, lines: unknown[]): void {
  const text = lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
  res.writeHead(200, { 'content-type': 'application/binary', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
