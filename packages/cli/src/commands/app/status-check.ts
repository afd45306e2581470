/**
 * Whether the App's webhook reaches this gateway: its URL against `<public_url>/webhooks/<route>`
 * for each route of the config.
 */
import { hookUrlOf } from '@webhook-gateway/reconcile';

export type WebhookMatch =
  | { kind: 'route'; route: string }
  | { kind: 'none'; expected: string[] }
  | { kind: 'no-public-url' }
  | { kind: 'no-url' };

export function webhookMatch(
  webhookUrl: string,
  publicUrl: string | undefined,
  routes: readonly string[],
): WebhookMatch {
  if (webhookUrl === '') return { kind: 'no-url' };
  if (publicUrl === undefined) return { kind: 'no-public-url' };
  const same = (a: string, b: string) => a.replace(/\/+$/, '') === b.replace(/\/+$/, '');
  const route = routes.find((name) => same(hookUrlOf(publicUrl, name), webhookUrl));
  return route === undefined
    ? { kind: 'none', expected: routes.map((name) => hookUrlOf(publicUrl, name)) }
    : { kind: 'route', route };
}

/** The line that says so. */
export function webhookMatchLine(match: WebhookMatch): string {
  switch (match.kind) {
    case 'route':
      return `it reaches route "${match.route}" of this gateway`;
    case 'no-url':
      return 'the App has no webhook URL: the forge sends this gateway nothing';
    case 'no-public-url':
      return 'cannot tell whether it reaches this gateway: platforms.webhook.extra.public_url is not set';
    case 'none':
      return match.expected.length === 0
        ? 'it does not reach this gateway: the config has no routes'
        : `it does not reach this gateway: its routes are at ${match.expected.join(', ')}`;
  }
}
