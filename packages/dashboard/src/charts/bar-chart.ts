/**
 * A bar chart as server-rendered SVG: bars stacked or side by side, a value axis with round
 * ticks, axis titles, an HTML legend and the numbers as a table for who cannot see the bars.
 * Colours come from the stylesheet by class (`series-<colour>`): the page's CSP allows no inline
 * style, and the palette lives in one place.
 */
import { html, type SafeHtml } from '../html.js';
import { valueTicks } from './scale.js';

/** One thing the chart counts, with a value per category. */
export interface ChartSeries {
  /** Stable name, on each bar as `data-series` (tests and scripts read it). */
  key: string;
  /** What the legend and the numbers call it. */
  label: string;
  /** The stylesheet's colour: `series-<colour>`. */
  colour: string;
  values: readonly number[];
}

/** A place on the category axis: an hour, a day, a route. */
export interface ChartCategory {
  /** Its full name, in each bar's tooltip and the table of numbers. */
  name: string;
  /** The label under the axis; null leaves this one unlabelled (an hour between ticks). */
  tick: string | null;
}

export interface BarChartSpec {
  /** The figure's element id; also prefixes the SVG's title and description ids. */
  id: string;
  title: string;
  /** The value axis' title, e.g. `deliveries`. */
  valueLabel: string;
  /** The category axis' title, e.g. `hour received (UTC)`. */
  categoryLabel: string;
  categories: readonly ChartCategory[];
  series: readonly ChartSeries[];
  /** Stacked: series add up in one bar. Grouped: one bar per series, side by side. */
  layout: 'stacked' | 'grouped';
  /** How a value reads (`1.2k tokens`, `3.4 s`). */
  format: (value: number) => string;
  /** Ticks at whole numbers only (counts). */
  whole?: boolean;
  /**
   * The value axis' ticks, when round numbers do not suit (durations), and their labels, when
   * `format` is too long for the axis (a currency the axis title already names).
   */
  axis?: { ticks?: (max: number) => number[]; label: (value: number) => string };
  /** A total per series in the legend; off where totals mean nothing (percentiles). */
  legendTotals?: boolean;
  /** Wide: the page's full width; narrow: half of it. Text keeps about the same size. */
  size?: 'wide' | 'narrow';
  /** Said instead of the chart when every value is zero. */
  empty: string;
}

// The drawing's own units; the SVG scales to the width it is given, so a wide chart gets more
// units than a narrow one and its text stays about as large.
const WIDTHS = { wide: 1000, narrow: 560 } as const;
const HEIGHT = 260;
const MARGIN = { top: 12, right: 12, bottom: 44, left: 64 };
const PLOT_HEIGHT = HEIGHT - MARGIN.top - MARGIN.bottom;

/** The chart's width in drawing units, and its plot's. */
function widthsOf(spec: BarChartSpec): { width: number; plot: number } {
  const width = WIDTHS[spec.size ?? 'wide'];
  return { width, plot: width - MARGIN.left - MARGIN.right };
}
/** Bars fill this share of their category's width; the rest is the gap between categories. */
const BAR_SHARE = 0.8;
const TICK_CHARS = 16;

/** A coordinate with at most two decimals: shorter markup, no visible difference. */
function at(value: number): string {
  return String(Math.round(value * 100) / 100);
}

function shortened(text: string): string {
  return text.length > TICK_CHARS ? `${text.slice(0, TICK_CHARS - 1)}…` : text;
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

/** The value of each series at `index`, for the tooltips and the table. */
function valuesAt(spec: BarChartSpec, index: number): number[] {
  return spec.series.map((series) => series.values[index] ?? 0);
}

function bar(
  spec: BarChartSpec,
  series: ChartSeries,
  category: ChartCategory,
  value: number,
  box: { x: number; y: number; width: number; height: number },
): SafeHtml {
  return html`<rect
    class="bar series-${series.colour}"
    data-series="${series.key}"
    data-value="${value}"
    x="${at(box.x)}"
    y="${at(box.y)}"
    width="${at(box.width)}"
    height="${at(box.height)}"
    ><title>${category.name} · ${series.label}: ${spec.format(value)}</title></rect
  >`;
}

function bars(spec: BarChartSpec, top: number): SafeHtml[] {
  const band = widthsOf(spec).plot / Math.max(1, spec.categories.length);
  const heightOf = (value: number) => Math.max(1, (value / top) * PLOT_HEIGHT);
  const baseline = MARGIN.top + PLOT_HEIGHT;
  return spec.categories.map((category, index) => {
    const left = MARGIN.left + index * band + (band * (1 - BAR_SHARE)) / 2;
    const width = band * BAR_SHARE;
    const parts: SafeHtml[] = [];
    if (spec.layout === 'stacked') {
      let y = baseline;
      for (const series of spec.series) {
        const value = series.values[index] ?? 0;
        if (value <= 0) continue;
        const height = heightOf(value);
        y -= height;
        parts.push(bar(spec, series, category, value, { x: left, y, width, height }));
      }
    } else {
      const each = width / Math.max(1, spec.series.length);
      spec.series.forEach((series, place) => {
        const value = series.values[index] ?? 0;
        if (value <= 0) return;
        const height = heightOf(value);
        const box = { x: left + place * each, y: baseline - height, width: each, height };
        parts.push(bar(spec, series, category, value, box));
      });
    }
    return html`<g data-category="${category.name}">${parts}</g>`;
  });
}

function valueAxis(spec: BarChartSpec, ticks: readonly number[], top: number): SafeHtml {
  const right = widthsOf(spec).width - MARGIN.right;
  const label = spec.axis?.label ?? spec.format;
  const lines = ticks.map((tick) => {
    const y = MARGIN.top + PLOT_HEIGHT - (tick / top) * PLOT_HEIGHT;
    return html`<line class="grid" x1="${MARGIN.left}" x2="${right}" y1="${at(y)}" y2="${at(y)}" />
      <text
        class="tick"
        x="${MARGIN.left - 6}"
        y="${at(y)}"
        text-anchor="end"
        dominant-baseline="middle"
        >${label(tick)}</text
      >`;
  });
  const middle = MARGIN.top + PLOT_HEIGHT / 2;
  return html`<g class="axis axis-value">
    ${lines}
    <text class="axis-title" transform="translate(14 ${middle}) rotate(-90)" text-anchor="middle"
      >${spec.valueLabel}</text
    >
  </g>`;
}

function categoryAxis(spec: BarChartSpec): SafeHtml {
  const { width, plot } = widthsOf(spec);
  const band = plot / Math.max(1, spec.categories.length);
  const baseline = MARGIN.top + PLOT_HEIGHT;
  const ticks = spec.categories.map((category, index) => {
    if (category.tick === null) return html``;
    const x = MARGIN.left + index * band + band / 2;
    return html`<line
        class="tick-mark"
        x1="${at(x)}"
        x2="${at(x)}"
        y1="${baseline}"
        y2="${baseline + 4}"
      />
      <text class="tick" x="${at(x)}" y="${baseline + 16}" text-anchor="middle"
        >${shortened(category.tick)}</text
      >`;
  });
  return html`<g class="axis axis-category">
    <line
      class="baseline"
      x1="${MARGIN.left}"
      x2="${width - MARGIN.right}"
      y1="${baseline}"
      y2="${baseline}"
    />
    ${ticks}
    <text class="axis-title" x="${MARGIN.left + plot / 2}" y="${HEIGHT - 6}" text-anchor="middle"
      >${spec.categoryLabel}</text
    >
  </g>`;
}

function legend(spec: BarChartSpec): SafeHtml {
  return html`<ul class="legend" aria-label="Legend">
    ${spec.series.map(
      (series) =>
        html`<li data-series="${series.key}">
          <span class="swatch series-${series.colour}" aria-hidden="true"></span>${series.label}
          ${
            spec.legendTotals === false
              ? html``
              : html`<span class="legend-total">${spec.format(sum(series.values))}</span>`
          }
        </li>`,
    )}
  </ul>`;
}

/** The numbers behind the bars, for screen readers and for copying: non-empty categories only. */
function numbers(spec: BarChartSpec): SafeHtml {
  const rows = spec.categories
    .map((category, index) => ({ category, values: valuesAt(spec, index) }))
    .filter((row) => row.values.some((value) => value > 0));
  return html`<details class="chart-numbers">
    <summary>The numbers</summary>
    <div class="table-wrap">
      <table>
        <thead>
          <tr>
            <th scope="col">${spec.categoryLabel}</th>
            ${spec.series.map((series) => html`<th scope="col" class="num">${series.label}</th>`)}
          </tr>
        </thead>
        <tbody>
          ${rows.map(
            (row) =>
              html`<tr>
                <th scope="row">${row.category.name}</th>
                ${row.values.map((value) => html`<td class="num">${spec.format(value)}</td>`)}
              </tr>`,
          )}
        </tbody>
      </table>
    </div>
  </details>`;
}

/**
 * What a screen reader hears for the picture: the title and each series' total, or, where totals
 * mean nothing, each category's values.
 */
function summary(spec: BarChartSpec): string {
  if (spec.legendTotals === false) {
    const categories = spec.categories.map((category, index) => {
      const values = spec.series.map(
        (series) => `${series.label} ${spec.format(series.values[index] ?? 0)}`,
      );
      return `${category.name} ${values.join(', ')}`;
    });
    return `${spec.title}: ${categories.join('; ')}`;
  }
  const totals = spec.series.map((series) => `${series.label} ${spec.format(sum(series.values))}`);
  return `${spec.title}: ${totals.join(', ')}`;
}

/**
 * The chart as a `<figure>`.
 *
 * @example
 * barChart({ id: 'hourly', title: 'Deliveries per hour', layout: 'stacked', … })
 */
export function barChart(spec: BarChartSpec): SafeHtml {
  const everything = spec.series.flatMap((series) => series.values);
  if (!everything.some((value) => value > 0)) {
    return html`<figure class="chart" id="${spec.id}" data-empty="true">
      <figcaption>${spec.title}</figcaption>
      <p class="hint">${spec.empty}</p>
    </figure>`;
  }
  const tallest =
    spec.layout === 'stacked'
      ? Math.max(...spec.categories.map((_, index) => sum(valuesAt(spec, index))))
      : Math.max(...everything);
  const ticks = spec.axis?.ticks
    ? spec.axis.ticks(tallest)
    : valueTicks(tallest, spec.whole ? { whole: true } : {});
  const top = ticks.at(-1) ?? 1;
  return html`<figure class="chart" id="${spec.id}">
    <figcaption>${spec.title}</figcaption>
    ${legend(spec)}
    <div class="chart-scroll" tabindex="0" role="group" aria-label="${spec.title}">
      <svg
        class="chart-svg chart-${spec.size ?? 'wide'}"
        viewBox="0 0 ${widthsOf(spec).width} ${HEIGHT}"
        role="img"
        aria-label="${summary(spec)}"
        data-layout="${spec.layout}"
      >
        <title>${summary(spec)}</title>
        ${valueAxis(spec, ticks, top)} ${categoryAxis(spec)}
        <g class="bars">${bars(spec, top)}</g>
      </svg>
    </div>
    ${numbers(spec)}
  </figure>`;
}
