import { describe, expect, it } from 'vitest';
import { barChart, type BarChartSpec } from './bar-chart.js';

const spec: BarChartSpec = {
  id: 'chart-test',
  title: 'Deliveries per hour',
  valueLabel: 'deliveries',
  categoryLabel: 'hour received (UTC)',
  categories: [
    { name: '10:00 UTC', tick: '10:00' },
    { name: '11:00 UTC', tick: null },
    { name: '<b>12:00</b>', tick: '12:00' },
  ],
  series: [
    { key: 'delivered', label: 'delivered', colour: 'delivered', values: [3, 0, 1] },
    { key: 'failed', label: 'failed', colour: 'failed', values: [1, 0, 0] },
  ],
  layout: 'stacked',
  format: (value) => String(value),
  whole: true,
  empty: 'Nothing yet.',
};

/** The `data-series="…" data-value="…"` pairs of the bars, in document order. */
function bars(markup: string): string[] {
  return [...markup.matchAll(/data-series="([^"]+)"\s+data-value="([^"]+)"/g)].map(
    ([, series, value]) => `${series}=${value}`,
  );
}

/** The `attribute` of every element of `tag`. */
function attributes(markup: string, tag: string, attribute: string): string[] {
  const pattern = new RegExp(`<${tag}\\b[^>]*?\\s${attribute}="([^"]*)"`, 'g');
  return [...markup.matchAll(pattern)].map(([, value]) => value ?? '');
}

describe('barChart', () => {
  it('draws one bar per non-zero value, with a labelled picture, a legend and axis titles', () => {
    const markup = barChart(spec).toString();
    expect(bars(markup)).toEqual(['delivered=3', 'failed=1', 'delivered=1']);
    expect(markup).toContain('role="img"');
    expect(markup).toContain('aria-label="Deliveries per hour: delivered 4, failed 1"');
    expect(markup).toContain('<title>Deliveries per hour: delivered 4, failed 1</title>');
    expect(markup).toContain('<figcaption>Deliveries per hour</figcaption>');
    expect(markup).toMatch(/<li data-series="delivered">[\s\S]*?series-delivered[\s\S]*?>4</);
    expect(markup).toMatch(/class="axis-title"[^>]*>deliveries</);
    expect(markup).toMatch(/class="axis-title"[^>]*>hour received \(UTC\)</);
  });

  it('stacks a category in one column, bars touching, from the baseline up', () => {
    const markup = barChart(spec).toString();
    const xs = attributes(markup, 'rect', 'x');
    const ys = attributes(markup, 'rect', 'y').map(Number);
    const heights = attributes(markup, 'rect', 'height').map(Number);
    expect(xs[0]).toBe(xs[1]);
    // The failed bar sits on the delivered one.
    expect(ys[1]! + heights[1]!).toBeCloseTo(ys[0]!, 1);
    // 4 in a column of a 0–4 axis: the full plot height.
    expect(heights[0]! + heights[1]!).toBeCloseTo(204, 1);
  });

  it('sets grouped bars side by side, each from the baseline', () => {
    const markup = barChart({ ...spec, layout: 'grouped' }).toString();
    const xs = attributes(markup, 'rect', 'x').map(Number);
    const bottoms = attributes(markup, 'rect', 'y').map(
      (y, index) => Number(y) + Number(attributes(markup, 'rect', 'height')[index]),
    );
    expect(xs[1]).toBeGreaterThan(xs[0]!);
    expect(new Set(bottoms.map((bottom) => bottom.toFixed(1)))).toEqual(new Set(['216.0']));
  });

  it('labels the value axis with round ticks and only the categories that have a tick', () => {
    const markup = barChart(spec).toString();
    const ticks = [...markup.matchAll(/class="tick"[^>]*>([^<]*)</g)].map(([, text]) => text);
    expect(ticks).toEqual(['0', '1', '2', '3', '4', '10:00', '12:00']);
  });

  it('escapes names, and lists the numbers of non-empty categories in a table', () => {
    const markup = barChart(spec).toString();
    expect(markup).not.toContain('<b>');
    expect(markup).toContain('&lt;b&gt;12:00&lt;/b&gt; · delivered: 1');
    const rows = [...markup.matchAll(/<th scope="row">([^<]*)<\/th>/g)].map(([, name]) => name);
    expect(rows).toEqual(['10:00 UTC', '&lt;b&gt;12:00&lt;/b&gt;']);
  });

  it('takes its own axis, and names each category instead of totals where they mean nothing', () => {
    const markup = barChart({
      ...spec,
      layout: 'grouped',
      legendTotals: false,
      axis: { ticks: () => [0, 5], label: (value) => `${value} s` },
    }).toString();
    expect(markup).not.toContain('legend-total');
    expect(markup).toContain(
      'aria-label="Deliveries per hour: 10:00 UTC delivered 3, failed 1; 11:00 UTC delivered 0, failed 0; &lt;b&gt;12:00&lt;/b&gt; delivered 1, failed 0"',
    );
    const ticks = [...markup.matchAll(/class="tick"[^>]*>([^<]*)</g)].map(([, text]) => text);
    expect(ticks.slice(0, 2)).toEqual(['0 s', '5 s']);
  });

  it('says so instead of drawing when every value is zero', () => {
    const markup = barChart({
      ...spec,
      series: spec.series.map((series) => ({ ...series, values: [0, 0, 0] })),
    }).toString();
    expect(markup).not.toContain('<svg');
    expect(markup).toContain('data-empty="true"');
    expect(markup).toContain('Nothing yet.');
  });
});
