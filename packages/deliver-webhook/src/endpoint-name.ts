/** Which endpoint a `webhook` route posts to: its `deliver_extra.endpoint`. */
import type { WebhookTargetSettings } from './settings.js';

/** The endpoint `extra.endpoint` names, or why it names none that exists (safe to show). */
export function endpointOf(
  extra: Readonly<Record<string, unknown>>,
  settings: WebhookTargetSettings,
): { ok: true; name: string } | { ok: false; reason: string } {
  const name = extra.endpoint;
  const known = Object.keys(settings.endpoints);
  const listed = known.length > 0 ? known.join(', ') : 'none';
  if (typeof name !== 'string' || name === '') {
    return {
      ok: false,
      reason: `set deliver_extra.endpoint to an endpoint of platforms.webhook_target.endpoints (${listed})`,
    };
  }
  if (!Object.prototype.hasOwnProperty.call(settings.endpoints, name)) {
    return {
      ok: false,
      reason: `deliver_extra.endpoint names "${name}", which platforms.webhook_target.endpoints does not have (${listed})`,
    };
  }
  return { ok: true, name };
}
