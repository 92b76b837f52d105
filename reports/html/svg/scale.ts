/** Scales and tick values for the report's SVG charts (no dependencies; the charts are small). */

export interface LinearScale {
  (v: number): number;
  domain: [number, number];
  ticks: number[];
}

/**
 * A linear scale from `domain` (widened to nice round ends unless `exact`) onto [r0, r1], with about
 * `count` ticks at 1, 2 or 5 × 10^k steps.
 */
export function linearScale(
  domain: [number, number],
  range: [number, number],
  opts: { count?: number; exact?: boolean } = {},
): LinearScale {
  let [d0, d1] = domain;
  if (!(d1 > d0))
    [d0, d1] =
      d0 === 0 && d1 === 0
        ? [0, 1]
        : [Math.min(d0, d1) - Math.abs(d0) * 0.1 - 1e-9, Math.max(d0, d1) + Math.abs(d1) * 0.1 + 1e-9];
  const step = tickStep(d0, d1, opts.count ?? 5);
  if (!opts.exact) {
    d0 = Math.floor(d0 / step) * step;
    d1 = Math.ceil(d1 / step) * step;
  }
  const ticks: number[] = [];
  for (let t = Math.ceil(d0 / step) * step; t <= d1 + step * 1e-9; t += step) ticks.push(round(t, step));
  const [r0, r1] = range;
  const f = ((v: number) => r0 + ((v - d0) / (d1 - d0)) * (r1 - r0)) as LinearScale;
  f.domain = [d0, d1];
  f.ticks = ticks;
  return f;
}

function tickStep(d0: number, d1: number, count: number): number {
  // d3's rule: the 1, 2 or 5 × 10^k step nearest to span / count (on a log scale).
  const raw = (d1 - d0) / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(raw));
  const m = raw / power;
  return (m >= Math.sqrt(50) ? 10 : m >= Math.sqrt(10) ? 5 : m >= Math.SQRT2 ? 2 : 1) * power;
}

/** Rounds away binary noise (0.30000000000000004) to the tick step's precision. */
function round(v: number, step: number): number {
  const digits = Math.max(0, -Math.floor(Math.log10(step)) + 1);
  return Number(v.toFixed(Math.min(12, digits)));
}

/** Evenly spaced bands for categories: start of each band and the band's width, with padding between. */
export function bandScale(
  keys: readonly string[],
  range: [number, number],
  padding = 0.2,
): { at(key: string): number; width: number } {
  const [r0, r1] = range;
  const n = Math.max(1, keys.length);
  const step = (r1 - r0) / (n + padding);
  const width = step * (1 - padding);
  const index = new Map(keys.map((k, i) => [k, i]));
  return { at: (key) => r0 + step * padding + step * (index.get(key) ?? 0), width };
}

/** Tick labels: 12,500 → "12.5k", 0.25 as a share → "25%". */
export function tickLabel(v: number, format: 'number' | 'percent'): string {
  if (format === 'percent') return `${Math.round(v * 100)}%`;
  const a = Math.abs(v);
  if (a >= 1e6) return `${trim(v / 1e6)}M`;
  if (a >= 1e3) return `${trim(v / 1e3)}k`;
  return trim(v);
}

const trim = (v: number) => String(Number(v.toFixed(2)));

/** Approximate rendered width of a label at the charts' 11px sans-serif (for margins, not layout precision). */
export function textWidth(text: string): number {
  return text.length * 6.2;
}
