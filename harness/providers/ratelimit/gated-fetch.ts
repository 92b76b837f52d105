import { ATTEMPT_TAG, type AttemptTag } from '../transport.ts';
import type { GateTicket, RateGates } from './gate.ts';

export interface ResponseLike {
  status: number;
  headers: { get(name: string): string | null };
}

type FetchLike<R extends ResponseLike> = (input: any, init?: any) => Promise<R>;

/**
 * The SDK's fetch (the lean transport or the checked global fetch) behind the rate gates: each HTTP
 * attempt — the SDK's own retries too — waits for its model's gate, and its response is shown to the
 * gate. The gate only delays; whether to retry stays the SDK's decision (the one retry layer).
 */
export function gatedFetch<R extends ResponseLike>(gates: RateGates, inner: FetchLike<R>): FetchLike<R> {
  return (input, init) => {
    const tag = init?.[ATTEMPT_TAG] as AttemptTag | undefined;
    const gate = gates.for(tag?.model);
    const ticket = gate.acquire(init?.signal ?? undefined);
    const send = (t: GateTicket) =>
      inner(input, init).then((res) => {
        gate.observe(t, res.status, (name) => res.headers.get(name) ?? undefined);
        return res;
      });
    return ticket instanceof Promise ? ticket.then(send) : send(ticket);
  };
}
