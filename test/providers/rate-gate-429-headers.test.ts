import { describe, expect, it } from 'vitest';
import { RateGate, type GateTicket } from '../../harness/providers/ratelimit/gate.ts';

/**
 * A server that states its allowance (x-ratelimit-*) only on its 429s (issue 28, House): the gate
 * learns the rate from the 429's headers and keeps pacing at it while the load is above it — a quiet
 * second without 429s means the pace works, not that the limit was lifted. With a fake clock: the
 * count of attempts let through at once is the measure, no timing.
 */
const none = () => undefined;
const on429 = (name: string) =>
  ({
    'x-ratelimit-limit-requests': '10',
    'x-ratelimit-remaining-requests': '0',
    'x-ratelimit-reset-requests': '900ms',
    'retry-after-ms': '100',
    'retry-after': '1',
  })[name];

/** Asks for an attempt at `t`; a wait is given up at once (aborted) so no waiter outlives the step. */
function ask(gate: RateGate, onTicket: (t: GateTicket) => void): boolean {
  const ac = new AbortController();
  const r = gate.acquire(ac.signal);
  if (r instanceof Promise) {
    r.catch(() => {});
    ac.abort();
    return false;
  }
  onTicket(r);
  return true;
}

function scenario(successHeaders: boolean) {
  let t = 0;
  const gate = new RateGate(Infinity, () => t);
  const first = Array.from({ length: 12 }, () => gate.acquire() as GateTicket);
  first.forEach((ticket, i) => gate.observe(ticket, i < 10 ? 200 : 429, i < 10 ? none : on429));
  let through = 0;
  // 100 asks a second for 3 s: far above the 10/s the server allows.
  for (t = 200; t <= 3_200; t += 10) {
    const let_ = ask(gate, (ticket) =>
      gate.observe(
        ticket,
        200,
        successHeaders ? (n) => (n.startsWith('x-ratelimit') ? on429(n) : undefined) : none,
      ),
    );
    if (t >= 1_200 && let_) through++;
  }
  return { gate, through, advance: (ms: number) => (t += ms) };
}

describe('a limit stated only on 429s', () => {
  it('keeps pacing at the stated rate after a quiet second (≈ 10/s, not the 100/s asked for)', () => {
    const { through } = scenario(false);
    // 2 s at 10 per 0.9 s ≈ 22 attempts; without the rule the gate unpaces and lets ~200 through.
    expect(through).toBeGreaterThan(15);
    expect(through).toBeLessThanOrEqual(25);
  });

  it('ends the pace once the load falls below half the stated rate', () => {
    let t = 0;
    const gate = new RateGate(Infinity, () => t);
    const first = Array.from({ length: 12 }, () => gate.acquire() as GateTicket);
    first.forEach((ticket, i) => gate.observe(ticket, i < 10 ? 200 : 429, i < 10 ? none : on429));
    let immediate = 0;
    // One ask every 2 s (0.5/s, under half of 11/s): each is let through at once.
    for (t = 2_000; t <= 12_000; t += 2_000)
      if (ask(gate, (ticket) => gate.observe(ticket, 200, none))) immediate++;
    expect(immediate).toBe(6);
  });
});
