/** The delivery targets `--deliver` accepts, and their aliases: what the loaded plugins provide. */
import { canonicalName, corePlugin, type LoadedPlugin } from '@webhook-gateway/core/runtime';

type Plugins = readonly Pick<LoadedPlugin, 'plugin'>[];

function aliasesOf(plugins: Plugins): Record<string, string> {
  return Object.assign({}, ...plugins.map(({ plugin }) => plugin.aliases ?? {})) as Record<
    string,
    string
  >;
}

/** The canonical name of `--deliver`'s value (`telegram` → `messenger_a`); trims spaces. */
export function canonicalTarget(value: string, plugins: Plugins): string {
  return canonicalName(value.trim(), aliasesOf(plugins));
}

/** The message for a target no loaded plugin delivers to: the targets and aliases there are. */
export function unknownTargetMessage(value: string, plugins: Plugins): string {
  const targets = [corePlugin, ...plugins.map(({ plugin }) => plugin)].flatMap(
    (plugin) => plugin.provides?.targets ?? [],
  );
  const aliases = Object.keys(aliasesOf(plugins));
  const aliasText = aliases.length > 0 ? ` (aliases: ${aliases.join(', ')})` : '';
  return `unknown target "${value}" (--deliver): use one of ${[...new Set(targets)].join(', ')}${aliasText}, or a target a plugin listed under plugins: provides`;
}
