import { readRateLimitHeaders, type RateLimitInfo } from './headers.ts';

/**
 * Rate-limit aware pacing for one (provider, model): every HTTP attempt — the SDK's retries included —
 * passes `acquire` in the transport before it is sent, and every response is shown to `observe`. The
 * gate never retries anything (the SDK stays the one retry layer); it only decides *when* an attempt
 * may leave:
 *
 * - **retry-after for everybody**: a 429's `retry-after-ms` / `retry-after` holds back every attempt
 *   to the same model until then, not only the one that got it.
 * - **a mirror of the server's bucket**: when the vendor's request allowance headers give a limit,
 *   what remains and when it is full again, the gate keeps a client-side token bucket in step with
 *   the server's — rate = (limit − remaining) / reset, level = remaining + refill since that request
 *   was sent − the attempts sent after it — so it spaces attempts to the rate the server refills at
 *   and stops before the allowance is spent, instead of learning it from 429s.
 * - **AIMD without usable headers** (none, or a reset too coarse to give a rate): a 429 starts pacing
 *   at 0.9 × one request per retry-after when that is under a second (a token bucket's time to its
 *   next token), else 0.9 × the rate admitted lately (sent, less those answered 429); each further 429
 *   (at most every 200 ms) multiplies the pace by 0.7; each second without a 429 raises it by a
 *   quarter, once 3 s have passed without one it doubles each second; pacing ends when it is twice the rate attempts are
 *   asked for. A pace from allowance headers ends after a quiet second without them — unless the
 *   server states them only on its 429s: then it holds while attempts are asked for faster than half
 *   the stated rate.
 * - a token allowance at 0 (`*-tokens-remaining: 0`) pauses the model until its reset, at most 1 s
 *   (how many tokens the next request needs is not known here; a 429's retry-after says the rest).
 */
export interface GateTicket {
  seq: number;
  /** performance.now() when the attempt was let through. */
  sentAt: number;
}

export interface GateStats {
  /** 429 responses seen. */
  limited: number;
  /** Attempts that had to wait, and for how long in total (ms). */
  waited: number;
  waitedMs: number;
}

type Clock = () => number;

interface Waiter {
  resolve: (t: GateTicket) => void;
  reject: (e: Error) => void;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
  since: number;
}

const MIN_RATE = 0.2 / 1000; // a request every 5 s at the slowest (per ms)

export class RateGate {
  readonly stats: GateStats = { limited: 0, waited: 0, waitedMs: 0 };
  /** Requests per ms to pace at (the server's refill rate, or the AIMD guess); 0 while unknown. */
  private rate = 0;
  /** The server's refill rate as its allowance headers state it; 0 while they have not. */
  private headerRate = 0;
  /** Pacing on: attempts take from `level`, which refills at `rate` up to `capacity`. */
  private paced = false;
  private capacity = 1;
  private level = 0;
  private levelAt = 0;
  private blockedUntil = 0;
  private seq = 0;
  private syncedSeq = 0;
  private last429 = -Infinity;
  private lastDecrease = -Infinity;
  private lastHeaders = -Infinity;
  private lastGrow = -Infinity;
  /** A 2xx has carried allowance headers (some servers state their limit only on a 429). */
  private headersOnSuccess = false;
  /** Attempts asked for and admitted (let through, less those answered 429), per ms, over ~1 s. */
  private readonly asked = new Meter();
  private readonly admitted = new Meter();
  private readonly waiters: Waiter[] = [];
  private timer: NodeJS.Timeout | undefined;

  /**
   * @param maxWaitMs the longest an attempt is held: the SDK's timeout runs while it waits, so past
   * this (half the timeout) it goes anyway rather than be timed out and retried.
   */
  constructor(
    private readonly maxWaitMs = Infinity,
    private readonly now: Clock = () => performance.now(),
  ) {}

  /** A ticket now (no wait: the common case, no promise), or a promise of one. */
  acquire(signal?: AbortSignal): GateTicket | Promise<GateTicket> {
    const now = this.now();
    this.asked.add(now, 1);
    if (this.waiters.length === 0 && this.wait(now) <= 0) return this.take(now);
    return new Promise<GateTicket>((resolve, reject) => {
      const w: Waiter = { resolve, reject, signal, onAbort: undefined, since: now };
      if (signal) {
        w.onAbort = () => {
          const i = this.waiters.indexOf(w);
          if (i >= 0) this.waiters.splice(i, 1);
          reject(new DOMException('The operation was aborted.', 'AbortError'));
        };
        signal.addEventListener('abort', w.onAbort, { once: true });
      }
      this.waiters.push(w);
      this.schedule(now);
    });
  }

  /** A response to an attempt let through with `ticket`: its status and headers. */
  observe(ticket: GateTicket, status: number, get: (name: string) => string | undefined): void {
    const now = this.now();
    const info = status === 429 || hasRateHeaders(get) ? readRateLimitHeaders(get) : undefined;
    if (status === 429) this.admitted.add(now, -1);
    if (info?.requests) this.sync(ticket, info, now);
    if (info?.requests && status >= 200 && status < 300) this.headersOnSuccess = true;
    if (status === 429) this.on429(info ?? {}, now);
    if (info?.tokensExhaustedMs) this.block(now + Math.min(info.tokensExhaustedMs, 1000));
    if (status >= 200 && status < 300) this.grow(now);
    if (this.waiters.length > 0) this.schedule(now);
  }

  /** Milliseconds until an attempt may leave (≤ 0: now). */
  private wait(now: number): number {
    const blocked = this.blockedUntil - now;
    if (!this.paced) return blocked;
    const level = Math.min(this.capacity, this.level + (now - this.levelAt) * this.rate);
    return Math.max(blocked, level >= 1 ? 0 : (1 - level) / this.rate);
  }

  private take(now: number): GateTicket {
    if (this.paced) {
      this.level = Math.min(this.capacity, this.level + (now - this.levelAt) * this.rate) - 1;
      this.levelAt = now;
    }
    this.admitted.add(now, 1);
    return { seq: ++this.seq, sentAt: now };
  }

  private release(): void {
    this.timer = undefined;
    const now = this.now();
    while (
      this.waiters.length > 0 &&
      (this.wait(now) <= 0 || now - this.waiters[0]!.since >= this.maxWaitMs)
    ) {
      const w = this.waiters.shift()!;
      if (w.onAbort) w.signal!.removeEventListener('abort', w.onAbort);
      this.stats.waited++;
      this.stats.waitedMs += now - w.since;
      w.resolve(this.take(now));
    }
    if (this.waiters.length > 0) this.schedule(now);
  }

  private schedule(now: number): void {
    if (this.timer) clearTimeout(this.timer);
    const due = Math.min(this.wait(now), this.waiters[0]!.since + this.maxWaitMs - now);
    this.timer = setTimeout(() => this.release(), Math.max(0, Math.ceil(due)));
  }

  private block(until: number): void {
    if (until > this.blockedUntil) this.blockedUntil = until;
  }

  /** The server's allowance as of when this attempt was admitted, carried forward to now. */
  private sync(ticket: GateTicket, info: RateLimitInfo, now: number): void {
    const a = info.requests!;
    const used = a.limit - a.remaining;
    if (used > 0 && a.resetMs >= 10 * a.resolutionMs) this.headerRate = used / a.resetMs;
    // An allowance whose reset is too coarse for a rate (whole seconds, under 10 s) leaves it to AIMD.
    if (this.headerRate <= 0) return;
    this.rate = this.headerRate;
    this.lastHeaders = now;
    if (ticket.seq <= this.syncedSeq) return;
    this.syncedSeq = ticket.seq;
    this.paced = true;
    this.capacity = a.limit;
    const sentSince = this.seq - ticket.seq;
    // One token held back: attempts sent in the same instant may reach the server in another order.
    this.level = Math.min(a.limit, a.remaining + (now - ticket.sentAt) * this.rate) - sentSince - 1;
    this.levelAt = now;
  }

  private on429(info: RateLimitInfo, now: number): void {
    this.stats.limited++;
    this.last429 = now;
    if (info.retryAfterMs !== undefined) this.block(now + info.retryAfterMs);
    if (this.headerRate > 0) return; // the mirror already knows the bucket is empty
    if (!this.paced) {
      // A sub-second retry-after is a token bucket's time to its next token: one per retry-after is
      // the rate. A coarser one says little: then what was admitted over the last second.
      // With too little traffic to tell (under 5 admitted), the retry-after alone holds attempts back.
      const ra = info.retryAfterMs;
      const seen = this.admitted.rate(now);
      const guess = ra !== undefined && ra > 0 && ra < 1000 ? 1 / ra : seen * 1000 >= 5 ? seen : 0;
      if (guess > 0) this.startPacing(Math.max(MIN_RATE, 0.9 * guess), now);
    } else if (now - this.lastDecrease >= 200) {
      this.startPacing(Math.max(MIN_RATE, this.rate * 0.7), now);
    }
  }

  private startPacing(rate: number, now: number): void {
    this.rate = rate;
    this.paced = true;
    this.capacity = 1;
    this.level = Math.min(this.level, 0);
    this.levelAt = now;
    this.lastDecrease = now;
  }

  /**
   * After a 2xx. A pace from allowance headers ends after a quiet second without them (the limit was
   * lifted). An AIMD pace grows by a quarter each second without a 429, and doubles each second once
   * 3 s have passed without one; twice the asked-for rate ends it.
   */
  private grow(now: number): void {
    if (!this.paced) return;
    if (this.headerRate > 0 && !this.headersOnSuccess) {
      // The limit was stated on a 429 only (as some OpenAI-compatible servers do): a quiet second
      // means the pace works, not that the limit was lifted. It ends when the load falls below it.
      if (this.headerRate <= 2 * Math.max(this.asked.rate(now), MIN_RATE)) return;
      this.headerRate = 0;
      this.unpace();
      return;
    }
    if (this.headerRate > 0) {
      if (now - Math.max(this.lastHeaders, this.last429) < 1000) return;
      this.headerRate = 0;
      this.unpace();
      return;
    }
    this.level = Math.min(this.capacity, this.level + (now - this.levelAt) * this.rate);
    this.levelAt = now;
    if (now - Math.max(this.last429, this.lastGrow, this.lastDecrease) < 1000) return;
    this.lastGrow = now;
    this.rate *= now - this.last429 >= 3000 ? 2 : 1.25;
    this.capacity = Math.max(1, Math.ceil(this.rate * 100));
    if (this.rate > 2 * Math.max(this.asked.rate(now), MIN_RATE)) this.unpace();
  }

  private unpace(): void {
    this.paced = false;
    this.rate = 0;
  }
}

/**
 * Events per ms: the last full second's, or the current window's counted as if it were a second long
 * (a young window under-states the rate rather than blowing up a burst of 50 in 1 ms to 50 000/s).
 */
class Meter {
  private start = 0;
  private count = 0;
  private last = 0;
  add(now: number, n: number): void {
    if (now - this.start >= 1000) {
      this.last = this.count / Math.max(1, now - this.start);
      this.start = now;
      this.count = 0;
    }
    this.count += n;
  }
  /** Per ms: the last complete window's, or the current one's counted over at least `minSpan` ms. */
  rate(now: number, minSpan = 1000): number {
    const span = now - this.start;
    return Math.max(0, this.last, this.count / Math.max(span, minSpan));
  }
}

const RATE_HEADERS = [
  'retry-after',
  'retry-after-ms',
  'anthropic-ratelimit-requests-remaining',
  'x-ratelimit-remaining-requests',
  'anthropic-ratelimit-tokens-remaining',
  'anthropic-ratelimit-input-tokens-remaining',
  'anthropic-ratelimit-output-tokens-remaining',
  'x-ratelimit-remaining-tokens',
];

function hasRateHeaders(get: (name: string) => string | undefined): boolean {
  for (const h of RATE_HEADERS) if (get(h) !== undefined) return true;
  return false;
}

/** One gate per model of a provider ('*' for a request that names none). */
export class RateGates {
  private readonly gates = new Map<string, RateGate>();
  constructor(
    private readonly maxWaitMs = Infinity,
    private readonly clock?: Clock,
  ) {}
  for(model: string | undefined): RateGate {
    const key = model ?? '*';
    let g = this.gates.get(key);
    if (!g) this.gates.set(key, (g = new RateGate(this.maxWaitMs, this.clock)));
    return g;
  }
  stats(): Record<string, GateStats> {
    return Object.fromEntries([...this.gates].map(([k, g]) => [k, { ...g.stats }]));
  }
}
