import { describe, expect, it } from 'vitest';
import { routesPage } from './routes-page.js';

const base = { routes: [], complete: true, scanLimit: 1000, refreshMs: 0 };

describe('routesPage', () => {
  it('shows the last reconcile pass per route, with its problem escaped', () => {
    const text = routesPage({
      ...base,
      reconcile: {
        startedAt: 0,
        finishedAt: Date.UTC(2026, 0, 2, 3, 4, 5),
        routes: [
          { route: 'reviews', listed: 9, journaled: 5, redelivered: 4, failed: 0 },
          {
            route: 'merges',
            listed: 0,
            journaled: 0,
            redelivered: 0,
            failed: 0,
            error: 'glab <missing>',
          },
        ],
      },
    }).toString();
    expect(text).toContain('Reconcile with the forge');
    expect(text).toContain('2026-01-02T03:04:05.000Z');
    expect(text).toMatch(/data-route="reviews">[\s\S]*?data-label="Redelivered" class="num">4</);
    expect(text).toContain('glab &lt;missing&gt;');
  });

  it('offers Pause on an active route and Resume with the reason on a paused one, each form with its CSRF token', () => {
    const counts = {
      received: 0,
      queued: 0,
      running: 0,
      delivered: 0,
      failed: 0,
      denied: 0,
      over_budget: 0,
      superseded: 0,
      silent: 0,
      skipped: 0,
    };
    const route = (name: string) => ({
      name,
      kind: 'config' as const,
      events: [],
      target: 'log',
      counts,
    });
    const text = routesPage({
      ...base,
      routes: [route('reviews'), route('pushes')],
      pauses: [{ route: 'reviews', reason: 'model <outage>', since: Date.UTC(2026, 0, 2) }],
      csrf: 'token-1',
    }).toString();
    expect(text).toMatch(
      /data-route="reviews">[\s\S]*?paused since[\s\S]*?model &lt;outage&gt;[\s\S]*?action="\/dashboard\/resume"/,
    );
    expect(text).toMatch(/data-route="pushes">[\s\S]*?active[\s\S]*?action="\/dashboard\/pause"/);
    expect(text).toContain('Pause every route');
    // Pause every route, Resume reviews, Pause pushes, and the layout's log-out form.
    expect(text.match(/name="csrf" value="token-1"/g)?.length).toBe(4);
  });

  it('shows the pause of every route with its resume button instead of the pause-all form', () => {
    const text = routesPage({
      ...base,
      pauses: [{ route: null, reason: null, since: 0 }],
    }).toString();
    expect(text).toContain('Every route is paused since');
    expect(text).toContain('Resume every route');
    expect(text).not.toContain('Pause every route');
  });

  it('has no reconcile section before any pass', () => {
    expect(routesPage(base).toString()).not.toContain('Reconcile with the forge');
  });
});
