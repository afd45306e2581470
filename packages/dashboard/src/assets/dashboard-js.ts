/**
 * The dashboard's only script: live refresh. Each element with `data-refresh="<url>"` gets that
 * URL's HTML fragment every few seconds. It leaves a region alone while keyboard focus is in it,
 * so a refresh never pulls focus from under a keyboard user. Served as a file, so the pages'
 * Content-Security-Policy can forbid inline script.
 */
export const DASHBOARD_JS = `'use strict';
(() => {
  const periodMs = Number(document.documentElement.dataset.refreshMs) || 3000;
  const regions = Array.from(document.querySelectorAll('[data-refresh]'));
  if (regions.length === 0) return;
  const lastText = new Map();

  async function refresh(region) {
    if (region.contains(document.activeElement)) return;
    const response = await fetch(region.dataset.refresh, {
      credentials: 'same-origin',
      headers: { Accept: 'text/html' },
    });
    // The session ended (expired, token changed): reloading lands on the login form.
    if (response.status === 401) return window.location.reload();
    if (!response.ok) return;
    const text = await response.text();
    if (lastText.get(region) === text) return;
    lastText.set(region, text);
    region.innerHTML = text;
    region.dispatchEvent(new CustomEvent('dashboard:refreshed', { bubbles: true }));
  }

  async function tick() {
    if (!document.hidden) {
      await Promise.all(regions.map((region) => refresh(region).catch(() => undefined)));
    }
    setTimeout(tick, periodMs);
  }
  setTimeout(tick, periodMs);
})();
`;
