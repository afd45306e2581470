/**
 * `webhook-gateway webhook subscribe|list|remove|test`: dynamic subscriptions, routes kept in the
 * store instead of config.yaml. A running gateway serves a change from its next request.
 */
import type { Subscription } from '@webhook-gateway/core';
import { maskSecret } from '@webhook-gateway/core/runtime';
import type { Command } from 'commander';
import type { CommandContext } from '../../context.js';
import { addHomeOptions } from '../../home-options.js';
import { SHORT_SECRET_LENGTH, generateSecret } from '../../secret.js';
import { isInstalledTarget, subscriptionProblems } from './check.js';
import { hasStaticRoute, loadWebhookContext, withStore } from './context.js';
import { formatSubscriptionList, subscriptionView } from './list-format.js';
import {
  listOptionsSchema,
  parseName,
  parseOptions,
  removeOptionsSchema,
  subscribeOptionsSchema,
  testOptionsSchema,
  type SubscribeOptions,
} from './options.js';
import { applySubscriptionChanges, type SubscribeResult } from './subscription.js';
import { canonicalTarget, unknownTargetMessage } from './targets.js';
import { gatewayBaseUrl, testDelivery } from './test-request.js';
import { answerHint, sendTestDelivery } from './test-send.js';
import { failUsage } from './usage.js';

function print(text: string): void {
  process.stdout.write(`${text}\n`);
}

function warn(text: string): void {
  process.stderr.write(`warning: ${text}\n`);
}

function configName(context: CommandContext): string {
  return context.path ?? 'config.yaml';
}

/** The subscription as `subscribe` shows it after storing; the secret only when generated. */
function subscribeSummary(result: SubscribeResult): string {
  const { subscription: s, created, generatedSecret } = result;
  const secret =
    generatedSecret ?? `${maskSecret(s.secret)}${created ? '' : ' (kept unless --secret)'}`;
  const lines = [
    `${created ? 'created' : 'updated'} subscription "${s.name}": POST /webhooks/${s.name}`,
    `  events       ${s.events.length > 0 ? s.events.join(', ') : '(all)'}`,
    `  deliver      ${s.deliver}${s.deliverChatId ? ` (chat ${s.deliverChatId})` : ''}`,
    ...(s.skills.length > 0 ? [`  skills       ${s.skills.join(', ')}`] : []),
    ...(s.description ? [`  description  ${s.description}`] : []),
    `  secret       ${secret}`,
  ];
  if (generatedSecret) {
    lines.push(
      '',
      'This secret is shown only now: register it at the forge with the URL {public_url}/webhooks/' +
        s.name,
    );
  }
  lines.push('A running gateway serves it from the next request.');
  return lines.join('\n');
}

async function subscribe(nameArgument: string, raw: unknown): Promise<void> {
  const name = parseName(nameArgument);
  const options: SubscribeOptions = parseOptions(subscribeOptionsSchema, raw);
  const context = await loadWebhookContext(options);
  const { plugins } = context;
  const checkWith = { config: context.config, home: context.home, plugins };
  const deliver =
    options.deliver === undefined ? undefined : canonicalTarget(options.deliver, plugins);
  if (deliver !== undefined && !(await isInstalledTarget(deliver, checkWith))) {
    failUsage(unknownTargetMessage(options.deliver ?? deliver, plugins));
  }

  const result = await withStore(context, async (store) => {
    const existing = await store.getSubscription(name);
    const changes = {
      events: options.events,
      prompt: options.prompt,
      deliver,
      deliverChatId: options.deliverChatId,
      skills: options.skills,
      secret: options.secret,
      description: options.description,
    };
    const next = applySubscriptionChanges(name, existing, changes, Date.now(), generateSecret);
    const problems = await subscriptionProblems(next.subscription, checkWith);
    if (problems.length > 0) {
      throw new Error(
        problems.map((p) => `cannot subscribe "${name}": ${p.path}: ${p.message}`).join('\n'),
      );
    }
    await store.putSubscription(next.subscription);
    return next;
  });

  if (hasStaticRoute(context, name)) {
    warn(
      `${configName(context)} has a static route "${name}"; it wins: the gateway serves that route, not this subscription, until the route is removed from the config`,
    );
  }
  if (options.secret !== undefined && options.secret.length < SHORT_SECRET_LENGTH) {
    warn(
      `the secret is shorter than ${SHORT_SECRET_LENGTH} characters; leave out --secret to get a strong one`,
    );
  }
  if (options.json) {
    const staticRoutes = new Set(hasStaticRoute(context, name) ? [name] : []);
    print(
      JSON.stringify(
        {
          ...subscriptionView(result.subscription, staticRoutes),
          created: result.created,
          ...(result.generatedSecret ? { generated_secret: result.generatedSecret } : {}),
        },
        null,
        2,
      ),
    );
  } else {
    print(subscribeSummary(result));
  }
}

function staticRouteNames(context: CommandContext): Set<string> {
  return new Set(Object.keys(context.config.platforms.webhook.extra.routes));
}

async function list(raw: unknown): Promise<void> {
  const options = parseOptions(listOptionsSchema, raw);
  const context = await loadWebhookContext(options);
  const subscriptions = await withStore(context, (store) => store.listSubscriptions());
  subscriptions.sort((a, b) => a.name.localeCompare(b.name));
  const staticRoutes = staticRouteNames(context);
  if (options.json) {
    print(
      JSON.stringify(
        subscriptions.map((s) => subscriptionView(s, staticRoutes)),
        null,
        2,
      ),
    );
  } else {
    print(formatSubscriptionList(subscriptions, staticRoutes));
  }
}

async function remove(nameArgument: string, raw: unknown): Promise<void> {
  const name = parseName(nameArgument);
  const options = parseOptions(removeOptionsSchema, raw);
  const context = await loadWebhookContext(options);
  const removed = await withStore(context, (store) => store.removeSubscription(name));
  if (!removed)
    throw new Error(`no subscription named "${name}" (see webhook-gateway webhook list)`);
  if (options.json) {
    print(JSON.stringify({ name, removed: true }));
    return;
  }
  print(`removed subscription "${name}"; the gateway stops serving it from the next request`);
  if (hasStaticRoute(context, name)) {
    print(`the static route "${name}" of ${configName(context)} is still served`);
  }
}

async function test(nameArgument: string, raw: unknown): Promise<void> {
  const name = parseName(nameArgument);
  const options = parseOptions(testOptionsSchema, raw);
  const context = await loadWebhookContext(options);
  if (hasStaticRoute(context, name)) {
    throw new Error(
      `"${name}" is a static route of ${configName(context)}: webhook test works only for dynamic subscriptions (the gateway serves the static route under that name)`,
    );
  }
  const subscription: Subscription | undefined = await withStore(context, (store) =>
    store.getSubscription(name),
  );
  if (!subscription) {
    throw new Error(`no subscription named "${name}" (see webhook-gateway webhook list)`);
  }
  const settings = context.config.platforms.webhook.extra;
  if (options.url === undefined && settings.port === 0) {
    throw new Error(
      'platforms.webhook.extra.port is 0 (any free port), so the gateway address is not known; pass it with --url',
    );
  }
  const delivery = testDelivery(subscription, {
    baseUrl: options.url ?? gatewayBaseUrl(settings.host, settings.port),
    payload: options.payload,
    event: options.event,
  });
  const answer = await sendTestDelivery(delivery);
  const hint = answerHint(answer.status, name);
  if (options.json) {
    let body: unknown = answer.body;
    try {
      body = JSON.parse(answer.body) as unknown;
    } catch {
      // not JSON: printed as text
    }
    print(
      JSON.stringify({
        url: delivery.url,
        event: delivery.event,
        delivery_id: delivery.deliveryId,
        status: answer.status,
        body,
      }),
    );
  } else {
    print(`POST ${delivery.url}  event ${delivery.event}  delivery ${delivery.deliveryId}`);
    print(`${answer.status} ${answer.body}`);
  }
  if (hint) {
    process.stderr.write(`${hint}\n`);
    process.exitCode = 1;
  }
}

export function registerWebhookCommands(program: Command): void {
  const webhook = program
    .command('webhook')
    .description('dynamic subscriptions: routes kept in the store, served without a restart');

  addHomeOptions(
    webhook
      .command('subscribe')
      .description('add a subscription, or change the fields given of an existing one')
      .argument('<name>', 'route name: /webhooks/<name> (lowercase letters, digits, _ and -)'),
  )
    .option('--events <list>', 'comma-separated event types (empty: all events)')
    .option('--prompt <template>', 'prompt template, e.g. "Review PR #{number}"')
    .option(
      '--deliver <target>',
      'log (default), forge_comment, altforge_comment, messenger_a..d (telegram, discord, slack, signal), sms',
    )
    .option(
      '--deliver-chat-id <id>',
      'chat or channel for a messenger target (its deliver_extra.chat_id)',
    )
    .option('--skills <list>', 'comma-separated skill names; the first one found is loaded')
    .option('--secret <secret>', 'the shared secret (default: a new random one, printed once)')
    .option('--description <text>', 'what the subscription is for')
    .option('--json', 'print the stored subscription as JSON')
    .action(async (name: string, options: unknown) => {
      await subscribe(name, options);
    });

  addHomeOptions(webhook.command('list').description('list the subscriptions (secrets masked)'))
    .option('--json', 'print as JSON')
    .action(async (options: unknown) => {
      await list(options);
    });

  addHomeOptions(
    webhook
      .command('remove')
      .description('remove a subscription')
      .argument('<name>', 'subscription name'),
  )
    .option('--json', 'print the result as JSON')
    .action(async (name: string, options: unknown) => {
      await remove(name, options);
    });

  addHomeOptions(
    webhook
      .command('test')
      .description('send a signed test delivery to the running gateway and print its answer')
      .argument('<name>', 'subscription name (dynamic subscriptions only)'),
  )
    .option('--payload <json>', 'the JSON object to send (default: a small ping-like payload)')
    .option(
      '--event <type>',
      "event type header (default: the subscription's first event, else test)",
    )
    .option(
      '--url <base>',
      'gateway base URL (default: from platforms.webhook.extra host and port)',
    )
    .option('--json', 'print the answer as JSON')
    .action(async (name: string, options: unknown) => {
      await test(name, options);
    });
}
