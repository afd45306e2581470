/**
 * Module resolution hooks (registered by core-pin.ts): every import of `@webhook-gateway/core`
 * resolves to the running CLI's copy. A plugin installed globally beside the CLI may have brought
 * its own copy of core as a peer; it still runs against the one the CLI runs.
 */
import type { ResolveHook } from 'node:module';

const CORE = '@webhook-gateway/core';
let cliUrl: string | undefined;

/** Receives the URL of a module of the CLI, to resolve core as the CLI does. */
export function initialize(data: { cliUrl: string }): void {
  cliUrl = data.cliUrl;
}

export const resolve: ResolveHook = (specifier, context, nextResolve) => {
  const isCore = specifier === CORE || specifier.startsWith(`${CORE}/`);
  return isCore && cliUrl !== undefined
    ? nextResolve(specifier, { ...context, parentURL: cliUrl })
    : nextResolve(specifier, context);
};
