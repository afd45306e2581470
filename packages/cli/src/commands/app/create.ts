/**
 * `webhook-gateway app create`: the forge's App manifest flow, as Probot runs it. A one-button page
 * on 127.0.0.1 posts the manifest to the forge; the forge makes the App and sends the browser back
 * with a code; the code is exchanged for the App's id, private key and webhook secret, which are
 * saved in the gateway home. It ends by printing the App's install URL.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { errorMessage, settingsIn } from '@webhook-gateway/core';
import { resolveConfigPath } from '@webhook-gateway/core/runtime';
import forgeCommentPlugin from '@webhook-gateway/deliver-forge-comment';
import { convertAppManifest, DEFAULT_API_URL } from '@webhook-gateway/deliver-forge-comment/app';
import { loadContext } from '../../context.js';
import { writeAtomically } from '../../write-atomically.js';
import { OptionsError } from '../deliveries/options.js';
import { configWithApp, type AppConfigEdit } from './app-config.js';
import { parseCreateOptions } from './create-options.js';
import { forgeUrls, newAppUrl } from './forge-urls.js';
import { appManifest, defaultAppName } from './manifest.js';
import { createdPage, manifestPage, problemPage } from './manifest-page.js';
import { startManifestServer } from './manifest-server.js';

/** The App's key, in the gateway home; the config names it relative to the home. */
const KEY_FILE_NAME = 'app.pem';

const print = (line: string) => process.stdout.write(`${line}\n`);

/** config.yaml's text, or undefined when there is none yet. */
function readConfigText(file: string): string | undefined {
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
}

export async function createApp(raw: unknown): Promise<void> {
  const options = parseCreateOptions(raw);
  // The config as it is must be valid: the App's settings go into it.
  const context = await loadContext(options);
  const forge = settingsIn(forgeCommentPlugin, context.config).forge;
  const configFile = context.path ?? resolveConfigPath(context.home, options.config);
  const keyFile = path.join(context.home, KEY_FILE_NAME);
  if (!options.force) {
    if (forge.app) {
      throw new Error(
        `platforms.forge.app is already set in ${configFile} (app_id ${forge.app.app_id}); use --force to replace it with a new App`,
      );
    }
    if (fs.existsSync(keyFile)) {
      throw new Error(
        `${keyFile} already exists; use --force to replace it with the new App's key`,
      );
    }
  }
  const configured = context.config.platforms.webhook.extra.public_url;
  const publicUrl = options.publicUrl ?? configured;
  if (publicUrl === undefined) {
    throw new OptionsError(
      '--public-url is needed: platforms.webhook.extra.public_url is not set, and the App’s webhook must name the address the forge reaches this gateway at',
    );
  }
  const urls = forgeUrls(options.githubUrl, forge.api_url);
  const currentApiUrl = (forge.api_url ?? DEFAULT_API_URL).replace(/\/+$/, '');
  const edit = (appId: number, webhookSecret: string): AppConfigEdit => ({
    appId,
    privateKeyFile: KEY_FILE_NAME,
    route: options.route,
    webhookSecret,
    publicUrl: publicUrl === configured ? undefined : publicUrl,
    apiUrl: urls.apiUrl === currentApiUrl ? undefined : urls.apiUrl,
  });
  // Now, not after the forge has made the App: a file the App could not be saved in.
  configWithApp(readConfigText(configFile), edit(1, 'check'), configFile);

  const state = randomBytes(16).toString('hex');
  const owner = options.org === undefined ? 'your account' : `the organisation ${options.org}`;
  const name = options.name ?? defaultAppName(publicUrl);
  const server = await startManifestServer({
    state,
    formTarget: urls.githubUrl,
    page: (redirectUrl) =>
      manifestPage({
        manifest: appManifest({ name, publicUrl, route: options.route, redirectUrl }),
        action: newAppUrl(urls.githubUrl, options.org, state),
        owner: `${owner} on ${urls.githubUrl}`,
      }),
    onRefused: (why) => process.stderr.write(`warning: ${why}\n`),
  });
  print(`Open ${server.url} in a browser and press "Create the GitHub App".`);
  print(
    `The forge (${urls.githubUrl}) makes the App for ${owner}, then sends the browser back here; waiting for it (Ctrl-C to stop).`,
  );

  const code = await server.code;
  let created;
  try {
    created = await convertAppManifest(urls.apiUrl, code);
  } catch (error) {
    const message = `the forge made the App, but its code could not be exchanged: ${errorMessage(error)}`;
    await server.finish(502, problemPage('The App was not saved', message));
    throw new Error(message);
  }
  const updated = configWithApp(
    readConfigText(configFile),
    edit(created.id, created.webhookSecret),
    configFile,
  );
  fs.mkdirSync(context.home, { recursive: true, mode: 0o700 });
  writeAtomically(keyFile, created.pem, 0o600);
  // It now holds the App's webhook secret: readable by its owner only, as `init` writes it.
  writeAtomically(configFile, updated, 0o600);
  const installUrl = `${created.htmlUrl}/installations/new`;
  await server.finish(200, createdPage({ name: created.name, installUrl }));

  print(`Created the GitHub App "${created.name}" (app_id ${created.id}).`);
  print(`wrote ${keyFile} (mode 0600: the App's private key)`);
  print(
    `wrote ${configFile} (mode 0600: platforms.forge.app, and route "${options.route}" with the App's webhook secret)`,
  );
  print('Install the App on the repositories it should serve:');
  print(`  ${installUrl}`);
}
