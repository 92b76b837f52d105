import { html, type SafeHtml } from '../escape.ts';
import { tickLabel, textWidth, type LinearScale } from './scale.ts';

/** Shared pieces of the report's SVG charts: the frame, axes, category labels, legends. */

/** Category colours (Tableau 10, as Vega's default scheme), in order of first appearance. */
const palette = [
  '#4c78a8',
  '#f58518',
  '#e45756',
  '#72b7b2',
  '#54a24b',
  '#eeca3b',
  '#b279a2',
  '#ff9da6',
  '#9d755d',
  '#bab0ac',
];
export const colorAt = (i: number): string => palette[i % palette.length]!;

const FONT = 11;
const AXIS = '#888';
const GRID = '#e6e6e6';

export function svgFrame(width: number, height: number, body: SafeHtml[], label: string): SafeHtml {
  const w = Math.ceil(width);
  const h = Math.ceil(height);
  return html`<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" role="img" aria-label="${label}" font-family="system-ui, -apple-system, Segoe UI, Roboto, Arial, sans-serif" font-size="${FONT}">${body}</svg>`;
}

/** A vertical value axis at x: ticks and their labels (the panels draw their own grid lines). */
export function yAxis(
  scale: LinearScale,
  x: number,
  format: 'number' | 'percent',
  title: string | null,
): SafeHtml {
  const [top, bottom] = [scale(scale.domain[1]), scale(scale.domain[0])];
  const ticks = scale.ticks.map((t) => {
    const y = scale(t);
    return html`<line x1="${x - 4}" x2="${x}" y1="${y}" y2="${y}" stroke="${AXIS}"/><text x="${x - 6}" y="${y + 3.5}" text-anchor="end" fill="#444">${tickLabel(t, format)}</text>`;
  });
  const label = title
    ? html`<text transform="translate(${x - 38},${(top + bottom) / 2}) rotate(-90)" text-anchor="middle" fill="#333" font-weight="600">${title}</text>`
    : '';
  return html`<g>${ticks}<line x1="${x}" x2="${x}" y1="${top}" y2="${bottom}" stroke="${AXIS}"/>${label}</g>`;
}

/** A horizontal value axis at y: ticks and their labels below it (the panels draw their own grid lines). */
export function xAxis(
  scale: LinearScale,
  y: number,
  format: 'number' | 'percent',
  title: string | null,
): SafeHtml {
  const [left, right] = [scale(scale.domain[0]), scale(scale.domain[1])];
  const ticks = scale.ticks.map((t) => {
    const x = scale(t);
    return html`<line x1="${x}" x2="${x}" y1="${y}" y2="${y + 4}" stroke="${AXIS}"/><text x="${x}" y="${y + 15}" text-anchor="middle" fill="#444">${tickLabel(t, format)}</text>`;
  });
  const label = title
    ? html`<text x="${(left + right) / 2}" y="${y + 30}" text-anchor="middle" fill="#333" font-weight="600">${title}</text>`
    : '';
  return html`<g>${ticks}<line x1="${left}" x2="${right}" y1="${y}" y2="${y}" stroke="${AXIS}"/>${label}</g>`;
}

/** Light horizontal grid lines across [x, x + width] at the scale's ticks. */
export function gridLines(scale: LinearScale, x: number, width: number): SafeHtml[] {
  return scale.ticks.map(
    (t) => html`<line x1="${x}" x2="${x + width}" y1="${scale(t)}" y2="${scale(t)}" stroke="${GRID}"/>`,
  );
}

const SLANT = (40 * Math.PI) / 180;
const AXIS_LEFT = 56;

/**
 * How category labels under bands `band` wide are set: slanted when one would not fit, and then the
 * value axis moves right far enough for the first label, which reaches left of its band.
 */
export function categoryLayout(labels: readonly string[], band: number): { slant: boolean; left: number } {
  const slant = labels.some((l) => textWidth(l) > band - 2);
  const reach = slant ? textWidth(labels[0] ?? '') * Math.cos(SLANT) - AXIS_LEFT - band / 2 + 4 : 0;
  return { slant, left: AXIS_LEFT + Math.max(0, reach) };
}

/** A panel's width: what its content needs, and at least its title's. */
export function panelWidth(content: number, title: string | null): number {
  return Math.max(content, title ? textWidth(title) + 10 : 0);
}

/** Category labels under a horizontal baseline, centred on each band; slanted when they would collide. */
export function categoryLabels(
  items: { label: string; center: number }[],
  y: number,
  slant: boolean,
): SafeHtml[] {
  return items.map(({ label, center }) =>
    slant
      ? html`<text transform="translate(${center + 3},${y + 10}) rotate(-40)" text-anchor="end" fill="#333">${label}</text>`
      : html`<text x="${center}" y="${y + 14}" text-anchor="middle" fill="#333">${label}</text>`,
  );
}

/** Room the category labels need below the baseline. */
export function categoryLabelHeight(labels: readonly string[], slant: boolean): number {
  if (!slant) return 20;
  return Math.min(150, Math.max(0, ...labels.map(textWidth)) * Math.sin(SLANT) + 18);
}

/** A legend block: title, then one swatch and name per entry. Returns the markup and its width. */
export function legend(
  x: number,
  y: number,
  title: string | null,
  entries: { name: string; color: string }[],
): { markup: SafeHtml; width: number } {
  const rows = entries.map(
    (e, i) =>
      html`<rect x="${x}" y="${y + 16 + i * 16}" width="10" height="10" fill="${e.color}"/><text x="${x + 15}" y="${y + 25 + i * 16}" fill="#333">${e.name}</text>`,
  );
  const heading = title
    ? html`<text x="${x}" y="${y + 8}" fill="#333" font-weight="600">${title}</text>`
    : '';
  const width = 20 + Math.max(title ? textWidth(title) : 0, ...entries.map((e) => textWidth(e.name)));
  return { markup: html`<g>${heading}${rows}</g>`, width };
}

/** A panel heading centred over [x0, x1]. */
export function panelTitle(title: string | null, x0: number, x1: number, y: number): SafeHtml | '' {
  return title
    ? html`<text x="${(x0 + x1) / 2}" y="${y}" text-anchor="middle" fill="#333" font-weight="600">${title}</text>`
    : '';
}

/** A value as a tooltip (SVG <title>, no script). */
export function tip(text: string): SafeHtml {
  return html`<title>${text}</title>`;
}
