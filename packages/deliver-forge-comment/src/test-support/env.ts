/** Keeps a test's changes to `process.env` (PATH, ambient gh/glab credentials) from leaking. */
import { RECORDED_ENV } from './fake-cli.js';

/**
 * Removes the credential variables the fakes record (so an ambient `GH_TOKEN` cannot change a
 * result) and returns a function that puts `process.env` back as it was.
 */
export function isolateEnv(): () => void {
  const saved = { ...process.env };
  for (const name of RECORDED_ENV) delete process.env[name];
  return () => {
    for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
    Object.assign(process.env, saved);
  };
}
