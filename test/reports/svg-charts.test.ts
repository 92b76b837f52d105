import { describe, expect, it } from 'vitest';
import { linearScale, tickLabel } from '../../reports/html/svg/scale.ts';
import { groupedBars } from '../../reports/html/svg/bars.ts';
import { rowIntervals } from '../../reports/html/svg/intervals.ts';

const attrs = (svg: string, tag: string) =>
  [...svg.matchAll(new RegExp(`<${tag} ([^>]*)>`, 'g'))].map((m) =>
    Object.fromEntries([...m[1]!.matchAll(/([\w-]+)="([^"]*)"/g)].map((a) => [a[1], a[2]])),
  );

describe('report chart scales', () => {
  it('pick round ticks and widen the domain to them', () => {
    const y = linearScale([0, 49_965], [200, 0]);
    expect(y.ticks).toEqual([0, 10_000, 20_000, 30_000, 40_000, 50_000]);
    expect(y.domain).toEqual([0, 50_000]);
    expect(y(25_000)).toBe(100);
    const d = linearScale([-2.53, 0.31], [0, 100]);
    expect(d.ticks).toEqual([-3, -2.5, -2, -1.5, -1, -0.5, 0, 0.5]);
    expect(linearScale([1, 5], [0, 1], { exact: true }).ticks).toEqual([1, 2, 3, 4, 5]);
    expect(linearScale([0, 1], [0, 1], { exact: true }).ticks).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
  });

  it('label ticks compactly', () => {
    expect([
      tickLabel(12_500, 'number'),
      tickLabel(0.25, 'percent'),
      tickLabel(2_000_000, 'number'),
      tickLabel(-1.5, 'number'),
    ]).toEqual(['12.5k', '25%', '2M', '-1.5']);
  });
});

describe('report charts', () => {
  it('draw each bar to scale, and escape every label', () => {
    const svg = groupedBars({
      label: 'windows',
      legendTitle: 'window',
      yTitle: 'tokens',
      format: 'number',
      series: ['before', 'after'],
      panels: [
        {
          title: null,
          groups: [
            { label: 'inline', values: [10_000, 40_000] },
            { label: '<script>alert(1)</script>', values: [10_000, null] },
          ],
        },
      ],
    }).value;
    const bars = attrs(svg, 'rect').filter((r) => r.fill !== 'none' && Number(r.width) > 10);
    expect(bars.map((b) => Number(b.height))).toEqual([40, 160, 40]); // 10k, 40k, 10k on a 0–40k axis of 160 px
    expect(svg).not.toContain('<script>');
    expect(svg).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('place intervals by value, with the zero line and a legend', () => {
    const svg = rowIntervals({
      label: 'diffs',
      valueTitle: 'difference',
      zeroLine: true,
      legend: { title: 'verdict', entries: [{ name: 'worse', color: '#c62828' }] },
      panels: [
        {
          title: 'correctness',
          items: [
            { label: 'summary', mid: -1, lo: -1.5, hi: -0.5, color: '#c62828' },
            { label: 'contract', mid: 0.2, lo: 0, hi: 0.4, color: '#757575' },
          ],
        },
      ],
    }).value;
    const dots = attrs(svg, 'circle').map((c) => Number(c.cx));
    expect(dots[0]).toBeLessThan(dots[1]!);
    expect(svg).toContain('stroke-dasharray="4 3"');
    expect(svg).toContain('>worse</text>');
    expect(svg).toContain('<title>correctness · summary: -1 [-1.5, -0.5]</title>');
  });
});
