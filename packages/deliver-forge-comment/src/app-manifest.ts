/**
 * The last step of the forge's App manifest flow: the code the forge's redirect carries is
 * exchanged, without credentials, for the new App's id, private key and webhook secret
 * (`POST /app-manifests/{code}/conversions`; the code is good once, for an hour).
 */
import { z } from 'zod';
import { AppApiError, callAppApi } from './app-api-call.js';

/** The endpoint as messages name it. */
const CONVERSION_PATH = '/app-manifests/{code}/conversions';

const conversionSchema = z.object({
  id: z.number().int().positive(),
  slug: z.string().min(1),
  name: z.string(),
  html_url: z.url(),
  owner: z.object({ login: z.string() }).nullable().optional(),
  pem: z.string().min(1),
  webhook_secret: z.string().min(1).nullable(),
});

/** The new App as the conversion answers it (the client id and secret are not kept). */
export interface CreatedApp {
  id: number;
  slug: string;
  name: string;
  /** The App's page: `<html_url>/installations/new` installs it. */
  htmlUrl: string;
  /** The account that owns it. */
  owner: string | undefined;
  /** The App's private key, PEM. */
  pem: string;
  webhookSecret: string;
}

/**
 * Exchanges the manifest flow's `code` at `apiUrl`. Throws an error naming the endpoint and the
 * forge's message (a used or expired code answers 404 or 422).
 */
export async function convertAppManifest(apiUrl: string, code: string): Promise<CreatedApp> {
  const base = apiUrl.replace(/\/+$/, '');
  const path = `/app-manifests/${encodeURIComponent(code)}/conversions`;
  let answer;
  try {
    answer = await callAppApi({ apiUrl: base, method: 'POST', path, schema: conversionSchema });
  } catch (error) {
    if (!(error instanceof AppApiError)) throw error;
    // Until it is used, the code buys the App's key: the message names the endpoint without it.
    throw new AppApiError(error.message.replace(path, CONVERSION_PATH), error.status);
  }
  if (answer.webhook_secret === null) {
    throw new AppApiError(
      `POST ${base}${CONVERSION_PATH}: the forge made the App without a webhook secret; set one on the App's settings page (${answer.html_url}) and as the route's secret`,
      502,
    );
  }
  return {
    id: answer.id,
    slug: answer.slug,
    name: answer.name,
    htmlUrl: answer.html_url,
    owner: answer.owner?.login,
    pem: answer.pem,
    webhookSecret: answer.webhook_secret,
  };
}
