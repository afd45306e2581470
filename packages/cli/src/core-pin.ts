/** Makes every plugin import the CLI's own copy of core (see core-pin-hooks.ts), once per process. */
import { register } from 'node:module';

let registered = false;

export function pinCoreToCli(): void {
  if (registered) return;
  registered = true;
  register('./core-pin-hooks.js', import.meta.url, { data: { cliUrl: import.meta.url } });
}
