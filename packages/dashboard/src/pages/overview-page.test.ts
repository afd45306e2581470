import { describe, expect, it } from 'vitest';
import { DAY_MS, HOUR_MS, OUTCOMES, type HourOutcomes } from '../overview-data.js';
import type { Overview } from '../overview.js';
import { overviewPage } from './overview-page.js';

const today = Date.UTC(2025, 0, 10);

function hours(count: number, last: Partial<HourOutcomes['counts']>): HourOutcomes[] {
  return Array.from({ length: count }, (_, index) => ({
    start: today + 12 * HOUR_MS - (count - 1 - index) * HOUR_MS,
    counts: {
      delivered: 0,
      failed: 0,
      ignored: 0,
      superseded: 0,
      silent: 0,
      denied: 0,
      over_budget: 0,
      skipped: 0,
      ...(index === count - 1 ? last : {}),
    },
  }));
}

const overview: Overview = {
  window: '24h',
  hourly: hours(24, { delivered: 5, failed: 1, ignored: 2, over_budget: 1 }),
  agentTimes: [{ route: 'reviews', runs: 6, p50Ms: 2000, p95Ms: 9000 }],
  usage: {
    days: [today - DAY_MS, today],
    tokens: new Map([
      ['reviews', [1000, 2500]],
      ['triage', [0, 400]],
    ]),
    money: new Map(),
    prompt: { tokens: 3000, cached: 2048 },
  },
};

const base = { overview, scanLimit: 1000, refreshMs: 3000 };

describe('overviewPage', () => {
  it('shows the hourly outcomes, agent time and tokens, each as a chart with its series', () => {
    const markup = overviewPage(base).toString();
    expect(markup).toMatch(/<figure class="chart" id="chart-outcomes">/);
    for (const outcome of OUTCOMES) expect(markup).toContain(`<li data-series="${outcome}">`);
    expect(markup).toMatch(/data-series="over_budget"\s+data-value="1"/);
    expect(markup).toMatch(/data-series="p95"\s+data-value="9000"/);
    expect(markup).toMatch(/data-series="reviews"\s+data-value="2500"/);
    expect(markup).toMatch(/data-series="triage"\s+data-value="400"/);
    // Tokens read short on the axis and in the legend.
    expect(markup).toContain('2.5K');
    // No money chart without costs.
    expect(markup).not.toContain('chart-money');
  });

  it("says how much of the days' prompt tokens the provider's cache served, and nothing without prompt tokens", () => {
    const markup = overviewPage(base).toString();
    expect(markup).toMatch(
      /id="prompt-cache">\s*Prompt tokens in the last 7 days: 3K, of which\s+2K \(68%\) cached by the provider and\s+952 uncached\./,
    );
    const none = overviewPage({
      ...base,
      overview: { ...overview, usage: { ...overview.usage, prompt: { tokens: 0, cached: 0 } } },
    }).toString();
    expect(none).not.toContain('prompt-cache');
  });

  it('links to the other window and marks the current one', () => {
    const markup = overviewPage(base).toString();
    expect(markup).toMatch(/href="\/dashboard\/overview\?window=24h"\s+aria-current="page"/);
    expect(markup).toMatch(/href="\/dashboard\/overview\?window=7d">Last 7 days</);
    expect(markup).toContain('<a href="/dashboard/overview" aria-current="page">Overview</a>');
  });

  it('adds a money chart per currency when rows carry a cost, routes in their token colours', () => {
    const markup = overviewPage({
      ...base,
      overview: {
        ...overview,
        usage: { ...overview.usage, money: new Map([['USD', new Map([['triage', [0, 0.42]]])]]) },
      },
    }).toString();
    expect(markup).toContain('id="chart-money-USD"');
    expect(markup).toContain('Money per route per day (USD)');
    expect(markup).toMatch(
      /id="chart-money-USD"[\s\S]*?class="bar series-route-1"[\s\S]*?data-value="0.42"/,
    );
    expect(markup).toContain('0.42 USD');
    // The axis title names the currency; the ticks do not repeat it.
    const moneyChart = markup.slice(markup.indexOf('id="chart-money-USD"'));
    expect(moneyChart).toMatch(/class="tick"/);
    expect(moneyChart).not.toMatch(/class="tick"[^>]*>[^<]*USD/);
  });

  it('says how far back the charts reach when the scan limit cut them short', () => {
    const markup = overviewPage({
      ...base,
      overview: { ...overview, coveredSince: today - 3 * DAY_MS },
    }).toString();
    expect(markup).toContain('These charts read the newest 1000 deliveries, received since');
    expect(markup).toContain('2025-01-07 00:00:00 UTC');
  });
});
