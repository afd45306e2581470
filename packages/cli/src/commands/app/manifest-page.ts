/**
 * The pages `app create` serves on 127.0.0.1: the one-button page whose form posts the App
 * manifest to the forge, and the page the forge's redirect ends on. Plain HTML, no script.
 */
import type { AppManifest } from './manifest.js';

/** Text for HTML content and attribute values. */
function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem}
dt{font-weight:600}dd{margin:0 0 .5rem}code{font-size:.9em}
button{font:inherit;padding:.6rem 1.2rem;cursor:pointer}`;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><h1>${escapeHtml(title)}</h1>
${body}
</body>
</html>
`;
}

/**
 * The one-button page: what the App will be, and a form that posts the manifest (as JSON in the
 * field `manifest`) to `action`, the forge's new-App page with this run's `state`.
 */
export function manifestPage(options: {
  manifest: AppManifest;
  action: string;
  owner: string;
}): string {
  const { manifest } = options;
  const permissions = Object.entries(manifest.default_permissions)
    .map(([name, access]) => `<code>${escapeHtml(name)}: ${escapeHtml(access)}</code>`)
    .join(', ');
  return page(
    'Create the GitHub App',
    `<p>The forge will ask you to confirm the name, then send you back here; the gateway then
saves the App's ID, private key and webhook secret in its home.</p>
<dl>
<dt>Name</dt><dd>${escapeHtml(manifest.name)}</dd>
<dt>Owner</dt><dd>${escapeHtml(options.owner)}</dd>
<dt>Webhook</dt><dd><code>${escapeHtml(manifest.hook_attributes.url)}</code></dd>
<dt>Events</dt><dd>${manifest.default_events.map((e) => `<code>${escapeHtml(e)}</code>`).join(', ')}</dd>
<dt>Permissions</dt><dd>${permissions}</dd>
</dl>
<form method="post" action="${escapeHtml(options.action)}">
<input type="hidden" name="manifest" value="${escapeHtml(JSON.stringify(manifest))}">
<button type="submit" id="create-app">Create the GitHub App</button>
</form>`,
  );
}

/** The page the forge's redirect ends on: the App made and saved, and where to install it. */
export function createdPage(options: { name: string; installUrl: string }): string {
  return page(
    'GitHub App created',
    `<p>The gateway saved <strong>${escapeHtml(options.name)}</strong>. Install it on the
repositories it should serve:</p>
<p><a id="install" href="${escapeHtml(options.installUrl)}">${escapeHtml(options.installUrl)}</a></p>
<p>You can close this page; the command has finished.</p>`,
  );
}

/** A refusal or a failure, in a sentence. */
export function problemPage(title: string, message: string): string {
  return page(title, `<p id="problem">${escapeHtml(message)}</p>`);
}
