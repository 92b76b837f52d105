import { html, type SafeHtml } from '../escape.ts';
import { bandScale, linearScale, tickLabel } from './scale.ts';
import {
  categoryLabelHeight,
  categoryLabels,
  categoryLayout,
  colorAt,
  gridLines,
  legend,
  panelTitle,
  panelWidth,
  svgFrame,
  tip,
  yAxis,
} from './parts.ts';

export interface BarGroup {
  label: string;
  /** One value per series (null: no bar). */
  values: (number | null)[];
}

export interface BarPanel {
  title: string | null;
  groups: BarGroup[];
}

export interface BarChart {
  label: string;
  panels: BarPanel[];
  series: string[];
  legendTitle: string | null;
  yTitle: string;
  format: 'number' | 'percent';
  /** A fixed value domain (e.g. [0, 1] for shares); else 0 to the largest value, niced. */
  yDomain?: [number, number];
}

const PLOT_HEIGHT = 160;
const BAR = 12;
const GROUP_GAP = 14;
const PANEL_GAP = 18;
const TOP = 22;

/** Grouped bars (one bar per series in each group), in side-by-side panels sharing one value axis. */
export function groupedBars(c: BarChart): SafeHtml {
  const max = Math.max(
    0,
    ...c.panels.flatMap((p) => p.groups.flatMap((g) => g.values.filter((v): v is number => v !== null))),
  );
  const y = linearScale(c.yDomain ?? [0, max], [TOP + PLOT_HEIGHT, TOP], { exact: c.yDomain !== undefined });
  const groupWidth = c.series.length * BAR + GROUP_GAP;
  const labels = c.panels.flatMap((p) => p.groups.map((g) => g.label));
  const { slant, left } = categoryLayout(labels, groupWidth);
  const body: SafeHtml[] = [];
  let x = left;
  c.panels.forEach((panel, pi) => {
    const width = panelWidth(Math.max(1, panel.groups.length) * groupWidth, panel.title);
    if (pi === 0) body.push(yAxis(y, left, c.format, c.yTitle));
    body.push(
      html`<line x1="${x}" x2="${x + width}" y1="${y(y.domain[0])}" y2="${y(y.domain[0])}" stroke="#888"/>`,
      ...gridLines(y, x, width),
    );
    const band = bandScale(
      panel.groups.map((g) => g.label),
      [x, x + width],
      GROUP_GAP / groupWidth,
    );
    for (const g of panel.groups) {
      const first = band.at(g.label) + (band.width - c.series.length * BAR) / 2;
      g.values.forEach((v, si) => {
        if (v === null) return;
        const top = y(Math.max(y.domain[0], Math.min(y.domain[1], v)));
        const base = y(Math.max(y.domain[0], 0));
        body.push(
          html`<rect x="${first + si * BAR}" y="${Math.min(top, base)}" width="${BAR - 1}" height="${Math.max(0.5, Math.abs(base - top))}" fill="${colorAt(si)}">${tip(`${panel.title ? `${panel.title} · ` : ''}${g.label} · ${c.series[si]}: ${tickLabel(v, c.format)}`)}</rect>`,
        );
      });
    }
    body.push(
      ...categoryLabels(
        panel.groups.map((g) => ({ label: g.label, center: band.at(g.label) + band.width / 2 })),
        TOP + PLOT_HEIGHT,
        slant,
      ),
    );
    const title = panelTitle(panel.title, x, x + width, TOP - 8);
    if (title) body.push(title);
    x += width + PANEL_GAP;
  });
  const key = legend(
    x + 4,
    TOP,
    c.legendTitle,
    c.series.map((name, i) => ({ name, color: colorAt(i) })),
  );
  body.push(key.markup);
  const height = TOP + PLOT_HEIGHT + categoryLabelHeight(labels, slant);
  return svgFrame(x + 4 + key.width + 8, Math.max(height, TOP + 20 + c.series.length * 16), body, c.label);
}
