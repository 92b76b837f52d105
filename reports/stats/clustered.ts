import { tQuantile } from './t-dist.ts';

/** One observation and the cluster it belongs to (the case: reps are nested in cases). */
export interface Observation {
  cluster: string;
  value: number;
}

/** A mean with its cluster-robust standard error and t interval. */
export interface ClusteredEstimate {
  mean: number;
  /** CR1 standard error; null with fewer than 2 clusters. */
  se: number | null;
  /** Degrees of freedom of the t reference: clusters − 1. */
  df: number;
  /** The confidence interval at `level`; null with fewer than 2 clusters. */
  ci: [number, number] | null;
  n: number;
  clusters: number;
}

/** Per-cluster sums and counts, in a stable (sorted) cluster order. */
export function clusterTotals(obs: Observation[]): { sums: number[]; counts: number[]; keys: string[] } {
  const byKey = new Map<string, { sum: number; count: number }>();
  for (const o of obs) {
    const t = byKey.get(o.cluster);
    if (t) {
      t.sum += o.value;
      t.count++;
    } else byKey.set(o.cluster, { sum: o.value, count: 1 });
  }
  const keys = [...byKey.keys()].sort();
  return { keys, sums: keys.map((k) => byKey.get(k)!.sum), counts: keys.map((k) => byKey.get(k)!.count) };
}

/**
 * The mean of all observations with a cluster-robust (CR1, Liang–Zeger with the G/(G−1) correction)
 * standard error and a t interval on G − 1 degrees of freedom. Reps of one case share the case's
 * difficulty, so treating them as independent would shrink the interval; clustering on the case
 * counts each case once. With the same number of reps per case this equals the t interval over case
 * means.
 */
export function clusteredMean(obs: Observation[], level = 0.95): ClusteredEstimate | null {
  if (obs.length === 0) return null;
  const { sums, counts } = clusterTotals(obs);
  const n = obs.length;
  const g = sums.length;
  let total = 0;
  for (const s of sums) total += s;
  const mean = total / n;
  if (g < 2) return { mean, se: null, df: 0, ci: null, n, clusters: g };
  let acc = 0;
  for (let i = 0; i < g; i++) {
    const e = sums[i]! - counts[i]! * mean;
    acc += e * e;
  }
  const se = Math.sqrt((g / (g - 1)) * acc) / n;
  const half = tQuantile(1 - (1 - level) / 2, g - 1) * se;
  return { mean, se, df: g - 1, ci: [mean - half, mean + half], n, clusters: g };
}
