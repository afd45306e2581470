/**
 * `@webhook-gateway/deliver-forge-comment/app`: the forge's GitHub App API for programs beside
 * the gateway (the CLI's `app create` and `app status`, reconcile's App log): the App's client,
 * its key check, the manifest flow's code exchange, the App's status, and its own API called
 * with its JWT from the config's settings (`appApi`).
 */
export { AppClient, DEFAULT_API_URL, type AppIdentity } from './app-client.js';
export { readAppKey, type AppKeyResult } from './app-key.js';
export { convertAppManifest, type CreatedApp } from './app-manifest.js';
export { readAppStatus, type AppStatus, type AppInstallationStatus } from './app-status.js';
export { appApi, type AppApi, type AppApiAnswer } from './app-api.js';
