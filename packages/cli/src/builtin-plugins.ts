/** The plugins every gateway has; `plugins:` in config adds to these. */
import type { LoadedPlugin } from '@webhook-gateway/core';
import agent from '@webhook-gateway/agent';
import altforgeAuth from '@webhook-gateway/auth-altforge';
import forgeAuth from '@webhook-gateway/auth-forge';
import forgeComment from '@webhook-gateway/deliver-forge-comment';
import messenger from '@webhook-gateway/deliver-messenger';
import sms from '@webhook-gateway/deliver-sms';

export function builtinPlugins(): LoadedPlugin[] {
  return [forgeAuth, altforgeAuth, agent, forgeComment, messenger, sms].map((plugin) => ({
    plugin,
    options: undefined,
  }));
}
