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

  it('has no reconcile section before any pass', () => {
    expect(routesPage(base).toString()).not.toContain('Reconcile with the forge');
  });
});
