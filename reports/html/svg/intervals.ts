import { html, type SafeHtml } from '../escape.ts';
import { bandScale, linearScale, textWidth, tickLabel } from './scale.ts';
import {
  categoryLabelHeight,
  categoryLabels,
  categoryLayout,
  gridLines,
  legend,
  panelTitle,
  panelWidth,
  svgFrame,
  tip,
  xAxis,
  yAxis,
} from './parts.ts';

export interface Interval {
  label: string;
  mid: number;
  lo: number;
  hi: number;
  color: string;
}

export interface IntervalPanel {
  title: string | null;
  items: Interval[];
}

export interface IntervalChart {
  label: string;
  panels: IntervalPanel[];
  valueTitle: string;
  /** A fixed value domain (e.g. the 1–5 score scale); else the data's extent, niced. */
  domain?: [number, number];
  /** A dashed reference line at 0 (differences). */
  zeroLine?: boolean;
  legend?: { title: string | null; entries: { name: string; color: string }[] };
}

const PLOT = 160;
const TOP = 22;
const DOT = 4;

function valueScale(c: IntervalChart, range: [number, number]) {
  const values = c.panels.flatMap((p) => p.items.flatMap((i) => [i.lo, i.hi, i.mid]));
  if (c.zeroLine) values.push(0);
  const [lo, hi] = [Math.min(...values), Math.max(...values)];
  // A little room beyond the data, so a dot at the extreme (or on the zero line) is not on the frame.
  const pad = (hi - lo) * 0.05 || 0.5;
  const domain: [number, number] = c.domain ?? [lo - pad, hi + pad];
  return linearScale(domain, range, { exact: c.domain !== undefined });
}

const tipText = (p: IntervalPanel, i: Interval) =>
  `${p.title ? `${p.title} · ` : ''}${i.label}: ${tickLabel(i.mid, 'number')} [${tickLabel(i.lo, 'number')}, ${tickLabel(i.hi, 'number')}]`;

/** Categories along x, values up y: one interval (rule lo–hi, dot at mid) per category, panels side by side. */
export function columnIntervals(c: IntervalChart): SafeHtml {
  const y = valueScale(c, [TOP + PLOT, TOP]);
  const step = 30;
  const labels = c.panels.flatMap((p) => p.items.map((i) => i.label));
  const { slant, left } = categoryLayout(labels, step);
  const body: SafeHtml[] = [];
  let x = left;
  c.panels.forEach((panel, pi) => {
    const width = panelWidth(Math.max(2, panel.items.length) * step, panel.title);
    if (pi === 0) body.push(yAxis(y, left, 'number', c.valueTitle));
    body.push(...gridLines(y, x, width));
    body.push(html`<rect x="${x}" y="${TOP}" width="${width}" height="${PLOT}" fill="none" stroke="#ddd"/>`);
    const band = bandScale(
      panel.items.map((i) => i.label),
      [x, x + width],
      0,
    );
    for (const i of panel.items) {
      const cx = band.at(i.label) + band.width / 2;
      // An interval past a fixed scale (a CI above 5 on the 1–5 scores) is drawn to its edge; the tooltip has the value.
      const at = (v: number) => y(Math.min(y.domain[1], Math.max(y.domain[0], v)));
      body.push(
        html`<g>${tip(tipText(panel, i))}<line x1="${cx}" x2="${cx}" y1="${at(i.lo)}" y2="${at(i.hi)}" stroke="${i.color}" stroke-width="2"/><circle cx="${cx}" cy="${at(i.mid)}" r="${DOT}" fill="${i.color}"/></g>`,
      );
    }
    body.push(
      ...categoryLabels(
        panel.items.map((i) => ({ label: i.label, center: band.at(i.label) + band.width / 2 })),
        TOP + PLOT,
        slant,
      ),
    );
    const title = panelTitle(panel.title, x, x + width, TOP - 8);
    if (title) body.push(title);
    x += width + 18;
  });
  return svgFrame(x + 4, TOP + PLOT + categoryLabelHeight(labels, slant), body, c.label);
}

/** Categories down y, values along x: one interval per row, panels stacked, a shared value axis at the bottom. */
export function rowIntervals(c: IntervalChart): SafeHtml {
  const labels = c.panels.flatMap((p) => p.items.map((i) => i.label));
  const left = Math.min(220, Math.max(...labels.map(textWidth), 40) + 12);
  const plotWidth = 360;
  const x = valueScale(c, [left, left + plotWidth]);
  const row = 22;
  const body: SafeHtml[] = [];
  let top = 8;
  for (const panel of c.panels) {
    if (panel.title) {
      top += 12;
      body.push(html`<text x="${left}" y="${top}" fill="#333" font-weight="600">${panel.title}</text>`);
      top += 6;
    }
    const height = Math.max(1, panel.items.length) * row;
    for (const t of x.ticks)
      body.push(html`<line x1="${x(t)}" x2="${x(t)}" y1="${top}" y2="${top + height}" stroke="#e6e6e6"/>`);
    body.push(
      html`<rect x="${left}" y="${top}" width="${plotWidth}" height="${height}" fill="none" stroke="#ddd"/>`,
    );
    if (c.zeroLine)
      body.push(
        html`<line x1="${x(0)}" x2="${x(0)}" y1="${top}" y2="${top + height}" stroke="#888" stroke-dasharray="4 3"/>`,
      );
    panel.items.forEach((i, k) => {
      const cy = top + k * row + row / 2;
      body.push(html`<text x="${left - 6}" y="${cy + 3.5}" text-anchor="end" fill="#333">${i.label}</text>`);
      body.push(
        html`<g>${tip(tipText(panel, i))}<line x1="${x(i.lo)}" x2="${x(i.hi)}" y1="${cy}" y2="${cy}" stroke="${i.color}" stroke-width="2"/><circle cx="${x(i.mid)}" cy="${cy}" r="${DOT}" fill="${i.color}"/></g>`,
      );
    });
    top += height + 6;
  }
  body.push(xAxis(x, top, 'number', c.valueTitle));
  const key = c.legend ? legend(left + plotWidth + 16, 8, c.legend.title, c.legend.entries) : undefined;
  if (key) body.push(key.markup);
  return svgFrame(
    left + plotWidth + 16 + (key ? key.width + 8 : 0),
    Math.max(top + 40, 8 + 20 + (c.legend?.entries.length ?? 0) * 16),
    body,
    c.label,
  );
}
