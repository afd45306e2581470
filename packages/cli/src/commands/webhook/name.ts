/** The names a dynamic subscription may have: they end up in `/webhooks/<name>`. */

/** Lowercase letters, digits, `_` and `-`, starting with a letter or digit. */
const SUBSCRIPTION_NAME = /^[a-z0-9][a-z0-9_-]*$/;

/** Why `name` cannot name a subscription, or undefined when it can. */
export function subscriptionNameProblem(name: string): string | undefined {
  if (SUBSCRIPTION_NAME.test(name)) return undefined;
  return `invalid subscription name "${name}": use lowercase letters, digits, "_" and "-", starting with a letter or digit`;
}
