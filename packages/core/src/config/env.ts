/** `${VAR}` (and `${VAR:-default}`) expansion of config string values, before validation. */

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/** A reference to an environment variable that is not set, with where it was found. */
export interface MissingEnv {
  path: (string | number)[];
  name: string;
}

/** Expands references in every string of a parsed config tree; reports unset variables. */
export function expandEnv(
  value: unknown,
  env: NodeJS.ProcessEnv,
  missing: MissingEnv[] = [],
  path: (string | number)[] = [],
): unknown {
  if (typeof value === 'string') {
    return value.replace(REFERENCE, (whole, name: string, fallback: string | undefined) => {
      const found = env[name];
      if (found !== undefined && found !== '') return found;
      if (fallback !== undefined) return fallback;
      missing.push({ path, name });
      return whole;
    });
  }
  if (Array.isArray(value))
    return value.map((item, i) => expandEnv(item, env, missing, [...path, i]));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      out[key] = expandEnv(inner, env, missing, [...path, key]);
    }
    return out;
  }
  return value;
}
