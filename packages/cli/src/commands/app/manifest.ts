/**
 * The GitHub App manifest `app create` posts to the forge: an App whose one webhook goes to a
 * route of this gateway, with the events the gateway answers and the least permissions its
 * targets need (docs/github-app.md says what each is for).
 */
import { hookUrlOf } from '@webhook-gateway/reconcile';

/** The events the App's webhook sends: pull requests, and comments on them (commands). */
const APP_EVENTS = ['pull_request', 'issue_comment', 'pull_request_review_comment'] as const;

/**
 * Repository permissions, no more: read the code; comment and review on pull requests; edit the
 * living comment through the issues API; metadata, which every App has.
 */
const APP_PERMISSIONS = {
  contents: 'read',
  pull_requests: 'write',
  issues: 'write',
  // `deliver_extra.check: true`: the review's check run on the head commit.
  checks: 'write',
  metadata: 'read',
} as const;

/** The forge's longest App name. */
const NAME_LIMIT = 34;

export interface AppManifest {
  name: string;
  url: string;
  hook_attributes: { url: string; active: true };
  redirect_url: string;
  public: false;
  default_events: readonly string[];
  default_permissions: Readonly<Record<string, 'read' | 'write'>>;
}

/**
 * A default name: the gateway's and its public host's first label (`webhook-gateway-hooks`); the
 * forge asks for it again before it makes the App, and names must be unique there.
 */
export function defaultAppName(publicUrl: string): string {
  const label = new URL(publicUrl).hostname.split('.')[0] ?? '';
  return `webhook-gateway-${label}`.slice(0, NAME_LIMIT).replace(/-+$/, '');
}

/**
 * The manifest: the webhook at `<publicUrl>/webhooks/<route>`, active; the forge's redirect back
 * to `redirectUrl` (the page's callback); a private App (only its owner may install it).
 */
export function appManifest(options: {
  name: string;
  publicUrl: string;
  route: string;
  redirectUrl: string;
}): AppManifest {
  return {
    name: options.name,
    url: options.publicUrl,
    hook_attributes: { url: hookUrlOf(options.publicUrl, options.route), active: true },
    redirect_url: options.redirectUrl,
    public: false,
    default_events: APP_EVENTS,
    default_permissions: APP_PERMISSIONS,
  };
}
