/**
 * The agent plugin's taps on `render`, ordered by tapable `stage` (lower runs first; a tap
 * without one is at 0). Framing fences what the taps before it made of the route's template, so
 * a plugin's tap at the default stage adds event data inside the fence. The skill is the
 * operator's own instruction: it goes on last, before the fence and outside it.
 */
import type { GatewayHooks } from '@webhook-gateway/core';
import { frameForRunner, framesEventData, randomNonce } from './framing.js';
import { addRouteSkill } from './skills.js';

/** Where the agent plugin's render taps run; a tap above `framing` adds text outside the fence. */
export const RENDER_STAGES = Object.freeze({ framing: 100, skills: 200 });

export interface RenderTapDeps {
  /** The nonce of each render's markers; default random. */
  nonce?: () => string;
}

/**
 * Taps `render` with `<plugin>:framing` and `<plugin>:skills`.
 *
 * @example tapRender(hooks.render, '@webhook-gateway/agent')
 */
export function tapRender(
  render: GatewayHooks['render'],
  pluginName: string,
  deps: RenderTapDeps = {},
): void {
  const nonce = deps.nonce ?? randomNonce;
  // The nonce is drawn only for a runner whose prompt is framed (not for every delivery).
  render.tap({ name: `${pluginName}:framing`, stage: RENDER_STAGES.framing }, (prompt, context) =>
    framesEventData(context.agent.runner) ? frameForRunner(prompt, context, nonce()) : prompt,
  );
  render.tapPromise({ name: `${pluginName}:skills`, stage: RENDER_STAGES.skills }, addRouteSkill);
}
