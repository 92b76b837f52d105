import { quantileSorted } from 'simple-statistics';
import { clusterTotals, type Observation } from './clustered.ts';

/**
 * Percentile interval of the mean from a cluster bootstrap: whole cases are resampled with
 * replacement, their reps travelling together. A cross-check on the t interval that assumes nothing
 * about the shape of 1–5 scores; `rand` must be seeded (see seededRandom) so a rebuilt report agrees.
 */
export function clusterBootstrapCi(
  obs: Observation[],
  opts: { resamples: number; level?: number; rand: () => number },
): [number, number] | null {
  const { sums, counts } = clusterTotals(obs);
  const g = sums.length;
  if (g < 2 || opts.resamples < 1) return null;
  const level = opts.level ?? 0.95;
  const means = new Float64Array(opts.resamples);
  for (let b = 0; b < opts.resamples; b++) {
    let s = 0;
    let n = 0;
    for (let i = 0; i < g; i++) {
      const k = Math.floor(opts.rand() * g);
      s += sums[k]!;
      n += counts[k]!;
    }
    means[b] = s / n;
  }
  const sorted = Array.from(means.sort());
  return [quantileSorted(sorted, (1 - level) / 2), quantileSorted(sorted, 1 - (1 - level) / 2)];
}
