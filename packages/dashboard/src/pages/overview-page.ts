/**
 * `/dashboard/overview`: the charts. Deliveries per hour by outcome over 24 h or 7 days (chosen
 * by a plain link, `?window=`), agent time per route, and tokens and money per route per day.
 */
import { barChart, type ChartCategory, type ChartSeries } from '../charts/bar-chart.js';
import { durationTickLabel, durationTicks } from '../charts/scale.js';
import { formatDuration, formatTime } from '../format.js';
import { html, type SafeHtml } from '../html.js';
import { OVERVIEW_WINDOWS, USAGE_DAYS, type Overview, type OverviewWindow } from '../overview.js';
import {
  largestSeries,
  OTHER_ROUTES,
  OUTCOMES,
  type DailySeries,
  type Outcome,
} from '../overview-data.js';
import { page } from './layout.js';

/** How the windows read on their links and in titles. */
const WINDOW_LABELS: Record<OverviewWindow, string> = { '24h': 'Last 24 h', '7d': 'Last 7 days' };

const OUTCOME_LABELS: Record<Outcome, string> = {
  delivered: 'delivered',
  failed: 'failed',
  ignored: 'ignored',
  superseded: 'superseded',
  denied: 'denied',
  over_budget: 'over budget',
  silent: 'silent',
  skipped: 'skipped',
};

/** Routes get these many colours of their own (`series-route-<n>`); the rest share "other". */
const ROUTE_COLOURS = 7;

const count = new Intl.NumberFormat('en');
const compact = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 });
const amount = new Intl.NumberFormat('en', { minimumFractionDigits: 2, maximumFractionDigits: 4 });
const hourOfDay = new Intl.DateTimeFormat('en', {
  timeZone: 'UTC',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});
const dayOfMonth = new Intl.DateTimeFormat('en', {
  timeZone: 'UTC',
  weekday: 'short',
  month: 'short',
  day: 'numeric',
});
const weekday = new Intl.DateTimeFormat('en', { timeZone: 'UTC', weekday: 'short' });

/** `Wed 18`: a day under a narrow chart's bar. */
function shortDay(ms: number): string {
  return `${weekday.format(ms)} ${new Date(ms).getUTCDate()}`;
}

/** `2025-01-10 12:00 UTC`: an hour or day in a tooltip and the table of numbers. */
function minuteTime(ms: number): string {
  return formatTime(ms).replace(/:\d\d UTC$/, ' UTC');
}

function hourCategories(hourly: Overview['hourly'], window: OverviewWindow): ChartCategory[] {
  return hourly.map(({ start }) => {
    const hour = new Date(start).getUTCHours();
    const tick =
      window === '24h'
        ? hour % 3 === 0
          ? hourOfDay.format(start)
          : null
        : hour === 0
          ? dayOfMonth.format(start)
          : null;
    return { name: minuteTime(start), tick };
  });
}

function hourlyChart(overview: Overview): SafeHtml {
  const series = OUTCOMES.map((outcome): ChartSeries => ({
    key: outcome,
    label: OUTCOME_LABELS[outcome],
    colour: outcome,
    values: overview.hourly.map((hour) => hour.counts[outcome]),
  }));
  return barChart({
    id: 'chart-outcomes',
    title: `Deliveries per hour by outcome, ${WINDOW_LABELS[overview.window].toLowerCase()}`,
    valueLabel: 'deliveries',
    categoryLabel: 'hour received (UTC)',
    categories: hourCategories(overview.hourly, overview.window),
    series,
    layout: 'stacked',
    format: (value) => count.format(value),
    whole: true,
    empty: 'No deliveries finished in this window.',
  });
}

function agentTimeChart(overview: Overview): SafeHtml {
  const routes = overview.agentTimes;
  return barChart({
    id: 'chart-agent-time',
    title: `Agent time per route, p50 and p95, ${WINDOW_LABELS[overview.window].toLowerCase()}`,
    valueLabel: 'agent time',
    categoryLabel: 'route',
    categories: routes.map((route) => ({
      name: `${route.route} (${route.runs} ${route.runs === 1 ? 'run' : 'runs'})`,
      tick: route.route,
    })),
    series: [
      { key: 'p50', label: 'p50', colour: 'p50', values: routes.map((route) => route.p50Ms) },
      { key: 'p95', label: 'p95', colour: 'p95', values: routes.map((route) => route.p95Ms) },
    ],
    layout: 'grouped',
    format: formatDuration,
    axis: { ticks: (max) => durationTicks(max), label: durationTickLabel },
    legendTotals: false,
    size: 'narrow',
    empty: 'No agent ran in this window.',
  });
}

/** One colour per route, the same in the tokens and money charts: biggest token users first. */
function routeColours(usage: Overview['usage']): (route: string) => string {
  const order = [
    ...new Set([...largestSeries(usage.tokens, Number.MAX_SAFE_INTEGER).keys()]),
    ...[...usage.money.values()].flatMap((series) => [...series.keys()]),
  ];
  return (route) => {
    const index = order.indexOf(route);
    return route === OTHER_ROUTES || index < 0 || index >= ROUTE_COLOURS
      ? 'other'
      : `route-${index}`;
  };
}

function dailyChart(
  overview: Overview,
  options: {
    id: string;
    title: string;
    valueLabel: string;
    values: DailySeries;
    format: (value: number) => string;
    axisLabel?: (value: number) => string;
    empty: string;
  },
): SafeHtml {
  const colourOf = routeColours(overview.usage);
  const series = [...largestSeries(options.values, ROUTE_COLOURS + 1)].map(
    ([route, values]): ChartSeries => ({
      key: route,
      label: route,
      colour: colourOf(route),
      values,
    }),
  );
  return barChart({
    id: options.id,
    title: options.title,
    valueLabel: options.valueLabel,
    categoryLabel: 'day received (UTC)',
    categories: overview.usage.days.map((day) => ({
      name: formatTime(day).slice(0, 10),
      tick: shortDay(day),
    })),
    series,
    layout: 'stacked',
    format: options.format,
    ...(options.axisLabel ? { axis: { label: options.axisLabel } } : {}),
    size: 'narrow',
    empty: options.empty,
  });
}

function usageCharts(overview: Overview): SafeHtml {
  const tokens = dailyChart(overview, {
    id: 'chart-tokens',
    title: `Tokens per route per day, last ${USAGE_DAYS} days`,
    valueLabel: 'tokens',
    values: overview.usage.tokens,
    format: (value) => compact.format(value),
    empty: 'No agent reported tokens in these days.',
  });
  // Money only where rows carry a cost: one chart per currency, none without.
  const money = [...overview.usage.money].map(([currency, values]) =>
    dailyChart(overview, {
      id: `chart-money-${currency}`,
      title: `Money per route per day (${currency}), last ${USAGE_DAYS} days`,
      valueLabel: currency,
      values,
      format: (value) => `${amount.format(value)} ${currency}`,
      // The axis title names the currency; ticks that repeat it run into that title.
      axisLabel: (value) => amount.format(value),
      empty: 'No costs in these days.',
    }),
  );
  return html`${tokens}${money}`;
}

/** How much of the charted days' prompt the provider's prompt cache served; nothing without prompt tokens. */
function promptCacheNote(overview: Overview): SafeHtml {
  const { tokens, cached } = overview.usage.prompt;
  if (tokens <= 0) return html``;
  const share = Math.round((cached / tokens) * 100);
  return html`<p class="hint" id="prompt-cache">
    Prompt tokens in the last ${USAGE_DAYS} days: ${compact.format(tokens)}, of which
    ${compact.format(cached)} (${share}%) cached by the provider and
    ${compact.format(tokens - cached)} uncached.
  </p>`;
}

function windowLinks(current: OverviewWindow): SafeHtml {
  const windows = Object.keys(OVERVIEW_WINDOWS) as OverviewWindow[];
  return html`<nav class="window-switch" aria-label="Window">
    ${windows.map((window) =>
      window === current
        ? html`<a href="/dashboard/overview?window=${window}" aria-current="page"
            >${WINDOW_LABELS[window]}</a
          >`
        : html`<a href="/dashboard/overview?window=${window}">${WINDOW_LABELS[window]}</a>`,
    )}
  </nav>`;
}

/** The whole page. */
export function overviewPage(options: {
  overview: Overview;
  scanLimit: number;
  csrf?: string;
  refreshMs: number;
}): SafeHtml {
  const { overview } = options;
  return page(
    {
      title: 'Overview',
      section: 'overview',
      refreshMs: options.refreshMs,
      ...(options.csrf === undefined ? {} : { csrf: options.csrf }),
    },
    html`<h1>Overview</h1>
      ${windowLinks(overview.window)}
      ${
        overview.coveredSince === undefined
          ? html``
          : html`<p class="notice" role="status">
              These charts read the newest ${options.scanLimit} deliveries, received since
              ${formatTime(overview.coveredSince)}; older ones in the window are not counted.
            </p>`
      }
      ${hourlyChart(overview)}
      <p class="hint">
        Deliveries count in the hour they arrived, once finished. Ignored requests are answered and
        never journaled: this gateway process counts them from its start.
      </p>
      <div class="chart-row">${agentTimeChart(overview)} ${usageCharts(overview)}</div>
      <p class="hint">
        Agent time is the time a delivery's attempts ran (the agent and the delivery of its answer),
        not the time it waited in the queue.
      </p>
      ${promptCacheNote(overview)}`,
  );
}
