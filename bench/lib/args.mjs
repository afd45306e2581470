/** The command line of the A/B tools: `--name=number` options and `NAME=SPEC` arguments. */

/**
 * @param {string[]} args
 * @param {string} name
 * @param {number} fallback
 */
export function numberOption(args, name, fallback) {
  return Number(
    args.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback,
  );
}

/**
 * The `NAME=SPEC` arguments as `[name, spec]` pairs (a spec may itself hold `=`).
 * @param {string[]} args
 */
export function namedSpecs(args) {
  return args.filter((arg) => !arg.startsWith('--')).map((arg) => arg.split(/=(.*)/s));
}
