/** A render context as the attempt makes it, for the render taps' tests. */
import { silentLogger, type Logger, type RenderContext } from '@webhook-gateway/core';
import { agentConfig, deliveryRecord, routeConfig } from './run-request.js';

export interface RenderContextParts {
  runner: string;
  home?: string;
  skills?: string[];
  skillsDirs?: string[];
  log?: Logger;
}

export function renderContext(parts: RenderContextParts): RenderContext {
  return {
    delivery: deliveryRecord(),
    routeConfig: routeConfig(parts.skills ? { skills: parts.skills } : {}),
    agent: agentConfig({
      runner: parts.runner,
      ...(parts.skillsDirs ? { skills_dirs: parts.skillsDirs } : {}),
    }),
    home: parts.home ?? '/nonexistent-gateway-home',
    log: parts.log ?? silentLogger(),
  };
}
