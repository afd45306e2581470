/** The delivery targets `--deliver` accepts, and their aliases. */
import { PLATFORM_ALIASES, canonicalTargetName } from '@webhook-gateway/core/runtime';

/** Targets the built-in plugins install (DESIGN §8). */
export const BUILTIN_TARGETS: readonly string[] = Object.freeze([
  'log',
  'forge_comment',
  'altforge_comment',
  'messenger_a',
  'messenger_b',
  'messenger_c',
  'messenger_d',
  'sms',
]);

/** The canonical name of `--deliver`'s value (`telegram` → `messenger_a`); trims spaces. */
export function canonicalTarget(value: string): string {
  return canonicalTargetName(value.trim());
}

/** The message for a target no installed plugin delivers to. */
export function unknownTargetMessage(value: string): string {
  const aliases = Object.keys(PLATFORM_ALIASES).join(', ');
  return `unknown target "${value}" (--deliver): use one of ${BUILTIN_TARGETS.join(', ')} (aliases: ${aliases}), or a target a configured plugin installs`;
}
