/**
 * Loads a plugin's heavy code (a target's delivery, a runner) at its first use, so that importing
 * the plugin, and starting a gateway that never uses that code, does not load it.
 */

/** A function a module exports; its arguments are whatever the hook (or the caller) passes. */
type ExportedFunction = (...args: never[]) => unknown;

/**
 * The function `name` of the module `load` imports, as a function that imports the module at its
 * first call and calls the export from then on. `load` is an `import()` of a module of the plugin's
 * own, so bundlers and `tsc` still see it.
 *
 * @example
 * hooks.run.for('openai').tapPromise(name, lazyTap(() => import('./openai-runner.js'), 'runOpenAI'));
 *
 * @example
 * const deliverPage = lazyTap(() => import('./deliver-page.js'), 'deliverPage');
 * hooks.deliver.for('pager').tapPromise(name, (req) => deliverPage(req, settingsIn(plugin, req.config).pager));
 */
export function lazyTap<Name extends string, Module extends Record<Name, ExportedFunction>>(
  load: () => Promise<Module>,
  name: Name,
): (...args: Parameters<Module[Name]>) => Promise<Awaited<ReturnType<Module[Name]>>> {
  let loading: Promise<ExportedFunction> | undefined;
  const call = async (...args: unknown[]): Promise<unknown> => {
    loading ??= load().then((module) => module[name]);
    // The arguments are the export's own: the signature returned below says so to the caller.
    return (await loading)(...(args as never[]));
  };
  return call as (...args: Parameters<Module[Name]>) => Promise<Awaited<ReturnType<Module[Name]>>>;
}
