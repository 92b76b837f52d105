import { rngFor } from '../../harness/providers/sim/rng.ts';

/**
 * A seeded random stream for case generators. Each case draws from its own stream, keyed by
 * (suite, seed, case index), so case i is the same whatever `count` is asked for.
 */
export class Random {
  private readonly next: () => number;
  constructor(...key: (string | number)[]) {
    this.next = rngFor('cases', ...key);
  }
  float(): number {
    return this.next();
  }
  /** Integer in [lo, hi], both ends included. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(xs: readonly T[]): T {
    if (xs.length === 0) throw new Error('pick from an empty list');
    return xs[Math.floor(this.next() * xs.length)]!;
  }
  shuffle<T>(xs: readonly T[]): T[] {
    const out = [...xs];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  }
  /** k distinct items, in their original order. */
  sample<T>(xs: readonly T[], k: number): T[] {
    const chosen = new Set(this.shuffle(xs.map((_, i) => i)).slice(0, k));
    return xs.filter((_, i) => chosen.has(i));
  }
  /** A hex string of n digits (commit shas, request ids). */
  hex(n: number): string {
    let s = '';
    while (s.length < n) s += Math.floor(this.next() * 16).toString(16);
    return s;
  }
}
