/** The dashboard's stylesheet: readable on a phone (tables become cards), visible focus. */
export const DASHBOARD_CSS = `
:root {
  --ink: #1a1d21; --muted: #5b6470; --line: #d8dde3; --bg: #f6f7f9; --panel: #fff;
  --accent: #1d4ed8; --ok: #0f6b3a; --ok-bg: #dcf5e6; --bad: #a1161f; --bad-bg: #fde2e4;
  --wait: #7a4b00; --wait-bg: #fff1cc; --run: #1e3a8a; --run-bg: #dbe7ff;
  color-scheme: light;
}
* { box-sizing: border-box; }
body {
  margin: 0; background: var(--bg); color: var(--ink);
  font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
}
a { color: var(--accent); }
a:focus-visible, button:focus-visible, select:focus-visible, input:focus-visible, summary:focus-visible {
  outline: 3px solid var(--accent); outline-offset: 2px;
}
code, pre { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: 0.9em; }
.skip { position: absolute; left: -9999px; top: 0; background: var(--panel); padding: 0.5rem 1rem; }
.skip:focus { left: 0.5rem; top: 0.5rem; z-index: 10; }
header.top {
  display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem 1.5rem;
  background: #111827; color: #fff; padding: 0.6rem 1rem;
}
header.top .brand { font-weight: 700; }
header.top nav { display: flex; gap: 1rem; flex: 1; }
header.top a { color: #fff; text-decoration: none; padding: 0.2rem 0; border-bottom: 2px solid transparent; }
header.top a[aria-current="page"] { border-bottom-color: #93c5fd; }
header.top a:focus-visible, header.top button:focus-visible { outline-color: #93c5fd; }
header.top form { margin: 0; }
main { max-width: 80rem; margin: 0 auto; padding: 1rem; }
h1 { font-size: 1.5rem; margin: 0.5rem 0 1rem; overflow-wrap: anywhere; }
h2 { font-size: 1.15rem; margin: 1.5rem 0 0.5rem; }
.panel { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 1rem; }
button, .button {
  font: inherit; cursor: pointer; border-radius: 6px; padding: 0.4rem 0.9rem;
  border: 1px solid var(--accent); background: var(--accent); color: #fff; text-decoration: none;
  display: inline-block;
}
button.quiet { background: transparent; color: inherit; border-color: currentColor; }
form.filters { display: flex; flex-wrap: wrap; align-items: end; gap: 0.75rem; margin-bottom: 0.5rem; }
form.filters label { display: flex; flex-direction: column; font-size: 0.9rem; color: var(--muted); }
select, input[type="password"], input[type="text"] {
  font: inherit; padding: 0.35rem 0.5rem; border: 1px solid #8a939e; border-radius: 6px; background: #fff;
  min-width: 10rem; color: var(--ink);
}
.hint { color: var(--muted); font-size: 0.9rem; margin: 0.25rem 0 0.75rem; }
.notice { background: var(--run-bg); border: 1px solid #9db8f2; padding: 0.5rem 0.75rem; border-radius: 6px; }
.error { background: var(--bad-bg); border: 1px solid #f0a3aa; color: var(--bad); padding: 0.5rem 0.75rem; border-radius: 6px; }
.table-wrap { overflow-x: auto; background: var(--panel); border: 1px solid var(--line); border-radius: 6px; }
table { border-collapse: collapse; width: 100%; }
caption { text-align: left; padding: 0.6rem 0.75rem; color: var(--muted); font-size: 0.9rem; }
th, td { text-align: left; padding: 0.45rem 0.75rem; border-top: 1px solid var(--line); vertical-align: top; }
th { font-size: 0.85rem; color: var(--muted); font-weight: 600; white-space: nowrap; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
tbody th { font-size: 1rem; color: inherit; }
td code { overflow-wrap: anywhere; }
.status { display: inline-block; padding: 0 0.5rem; border-radius: 999px; font-size: 0.85rem; font-weight: 600; }
.status-delivered { color: var(--ok); background: var(--ok-bg); }
.status-failed { color: var(--bad); background: var(--bad-bg); }
.status-superseded { text-decoration: line-through; }
.status-queued { color: var(--wait); background: var(--wait-bg); }
.status-running { color: var(--run); background: var(--run-bg); }
.status-denied { color: var(--bad); background: var(--panel); border: 1px solid var(--bad); }
.status-over_budget { color: var(--wait); background: var(--panel); border: 1px solid var(--wait); }
.status-skipped { color: var(--muted); background: var(--panel); border: 1px solid var(--muted); }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 1rem; margin: 0; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
pre.block {
  background: #0f172a; color: #e2e8f0; padding: 0.75rem; border-radius: 6px; margin: 0;
  max-height: 28rem; overflow: auto; white-space: pre-wrap; overflow-wrap: anywhere;
}
.actions { display: flex; flex-wrap: wrap; align-items: center; gap: 0.75rem; margin: 1rem 0; }
.actions p { margin: 0; color: var(--muted); font-size: 0.9rem; }
form.pause { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem; margin: 0.25rem 0; }
form.login { max-width: 26rem; display: flex; flex-direction: column; gap: 0.75rem; }
form.login label { font-weight: 600; }
/* Charts (server-rendered SVG). Okabe–Ito colours, which read apart with any colour vision;
   each series also has its name in the legend, its tooltip and the table of numbers. */
.window-switch { display: flex; gap: 0.5rem; margin: 0 0 1rem; }
.window-switch a {
  padding: 0.3rem 0.8rem; border: 1px solid var(--accent); border-radius: 999px; text-decoration: none;
}
.window-switch a[aria-current="page"] { background: var(--accent); color: #fff; }
.chart { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 0.75rem 1rem; margin: 0 0 1rem; }
.chart figcaption { font-weight: 600; margin-bottom: 0.25rem; }
.chart-row { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 30rem), 1fr)); gap: 0 1rem; }
.chart-scroll { overflow-x: auto; }
.chart-scroll:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.chart-svg { display: block; width: 100%; height: auto; overflow: visible; }
/* Below these widths the text would shrink past reading: the chart scrolls sideways instead. */
.chart-svg.chart-wide { min-width: 44rem; }
.chart-svg.chart-narrow { min-width: 26rem; }
.chart-svg text { font: 12px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; fill: var(--muted); }
.chart-svg .axis-title { fill: var(--ink); font-weight: 600; }
.chart-svg .grid { stroke: var(--line); stroke-width: 1; }
.chart-svg .baseline, .chart-svg .tick-mark { stroke: var(--muted); stroke-width: 1; }
.chart-svg rect.bar { fill: var(--series); stroke: var(--panel); stroke-width: 0.5; }
.chart-svg rect.bar:hover { stroke: var(--ink); stroke-width: 1.5; }
.legend { display: flex; flex-wrap: wrap; gap: 0.25rem 1rem; list-style: none; margin: 0 0 0.5rem; padding: 0; font-size: 0.9rem; }
.legend li { display: flex; align-items: center; gap: 0.35rem; }
.legend .swatch { width: 0.9rem; height: 0.9rem; border-radius: 2px; background: var(--series); border: 1px solid rgba(0, 0, 0, 0.25); }
.legend-total { color: var(--muted); font-variant-numeric: tabular-nums; }
.chart-numbers summary { cursor: pointer; color: var(--accent); font-size: 0.9rem; margin-top: 0.25rem; }
.chart-numbers .table-wrap { margin-top: 0.5rem; max-height: 20rem; overflow: auto; }
.series-delivered { --series: #009e73; }
.series-failed { --series: #d55e00; }
.series-ignored { --series: #bbbbbb; }
.series-superseded { --series: #56b4e9; }
.series-denied { --series: #cc79a7; }
.series-over_budget { --series: #e69f00; }
.series-silent { --series: #999933; }
.series-skipped { --series: #44aa99; }
.series-p50 { --series: #56b4e9; }
.series-p95 { --series: #0072b2; }
.series-route-0 { --series: #0072b2; }
.series-route-1 { --series: #e69f00; }
.series-route-2 { --series: #009e73; }
.series-route-3 { --series: #cc79a7; }
.series-route-4 { --series: #56b4e9; }
.series-route-5 { --series: #d55e00; }
.series-route-6 { --series: #f0e442; }
.series-other { --series: #999999; }
@media (max-width: 720px) {
  main { padding: 0.75rem; }
  table.cards thead { position: absolute; left: -9999px; }
  table.cards tr { display: block; border-top: 1px solid var(--line); padding: 0.4rem 0; }
  table.cards td, table.cards tbody th {
    display: grid; grid-template-columns: 7.5rem 1fr; justify-items: start; gap: 0.5rem;
    border: 0; padding: 0.15rem 0.75rem; text-align: left;
  }
  table.cards td::before, table.cards tbody th::before {
    content: attr(data-label); color: var(--muted); font-size: 0.85rem; font-weight: 400;
  }
  table.cards td[colspan] { display: block; }
  table.cards td[colspan]::before { content: none; }
  dl.facts { grid-template-columns: 1fr; }
  dl.facts dd { margin-bottom: 0.4rem; }
}
`;
