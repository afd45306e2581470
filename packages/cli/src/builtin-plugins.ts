/**
 * The plugins every gateway has; `plugins:` in config adds to these. The Redis store is not one:
 * it is a separate install, loaded when `store.kind` names it (open-store.ts).
 */
import { importPlugin, type LoadedPlugin, type PluginEntry } from '@webhook-gateway/core/runtime';
import agent from '@webhook-gateway/agent';
import altforgeAuth from '@webhook-gateway/auth-altforge';
import bitbucketAuth from '@webhook-gateway/auth-bitbucket';
import forgeAuth from '@webhook-gateway/auth-forge';
import genericAuth from '@webhook-gateway/auth-generic';
import giteaAuth from '@webhook-gateway/auth-gitea';
import linearAuth from '@webhook-gateway/auth-linear';
import standardWebhooksAuth from '@webhook-gateway/auth-standard-webhooks';
import dashboard from '@webhook-gateway/dashboard';
import bitbucket from '@webhook-gateway/deliver-bitbucket';
import forgeComment from '@webhook-gateway/deliver-forge-comment';
import gitea from '@webhook-gateway/deliver-gitea';
import messenger from '@webhook-gateway/deliver-messenger';
import sms from '@webhook-gateway/deliver-sms';
import webhookTarget from '@webhook-gateway/deliver-webhook';
import reconcile from '@webhook-gateway/reconcile';
import sqliteStore from '@webhook-gateway/store-sqlite/plugin';
import { pluginSearch } from './cli-install.js';
import { pinCoreToCli } from './core-pin.js';

export function builtinPlugins(): LoadedPlugin[] {
  return [
    sqliteStore,
    // Schemes, in the order a route without `schemes` asks them: the senders' own headers first
    // (Gitea also sends the forge's X-Hub-Signature-256), a bare Bearer token last.
    standardWebhooksAuth,
    giteaAuth,
    bitbucketAuth,
    linearAuth,
    forgeAuth,
    altforgeAuth,
    genericAuth,
    agent,
    forgeComment,
    gitea,
    bitbucket,
    messenger,
    sms,
    webhookTarget,
    dashboard,
    reconcile,
  ].map((plugin) => ({ plugin, options: undefined }));
}

/**
 * The built-ins plus the plugins config lists, found from `fromDir` (the config file's
 * directory), then beside the CLI. A listed plugin with a built-in's name replaces it (to pass it
 * options) instead of running twice.
 */
export async function loadPlugins(
  entries: readonly PluginEntry[],
  fromDir: string,
): Promise<LoadedPlugin[]> {
  const plugins = builtinPlugins();
  const search = pluginSearch(fromDir);
  // Only a gateway with plugins of its own pays for the resolution hooks.
  if (entries.length > 0) pinCoreToCli();
  for (const entry of entries) {
    const loaded = await importPlugin(entry, search);
    const index = plugins.findIndex((p) => p.plugin.name === loaded.plugin.name);
    if (index >= 0) plugins[index] = loaded;
    else plugins.push(loaded);
  }
  return plugins;
}
