import fs from 'node:fs/promises';
import path from 'node:path';
import { silentLogger, type GatewayHooks } from '@webhook-gateway/core';
import { createHooks } from '@webhook-gateway/core/runtime';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { eventDataMarkers, frameEventData } from './framing.js';
import { RENDER_STAGES, tapRender } from './render-taps.js';
import { renderContext, type RenderContextParts } from './test-support/render-context.js';
import { cleanup, tempDir } from './test-support/temp.js';

const PROMPT = 'Review PR #2 in o/r';
const SKILL = 'SKILL: review the diff line by line.';

let home: string;
let hooks: GatewayHooks;

beforeEach(async () => {
  home = await tempDir();
  for (const [name, text] of [
    ['code-review', SKILL],
    ['triage', 'SKILL: label the issue.'],
  ] as const) {
    await fs.mkdir(path.join(home, 'skills', name), { recursive: true });
    await fs.writeFile(path.join(home, 'skills', name, 'SKILL.md'), text);
  }
  hooks = createHooks();
  tapRender(hooks.render, '@webhook-gateway/agent', { nonce: () => 'n0nce' });
});

afterEach(cleanup);

function render(parts: Omit<RenderContextParts, 'home'>, prompt = PROMPT): Promise<string> {
  return hooks.render.promise(prompt, renderContext({ home, ...parts }));
}

function framed(prompt: string): string {
  return frameEventData({
    markers: eventDataMarkers('n0nce'),
    prompt,
    route: 'review',
    event: 'pull_request',
  });
}

describe('the render taps', () => {
  it('names its taps after the plugin and orders them by stage: framing, then skills', () => {
    expect(hooks.render.taps.map((tap) => [tap.name, tap.stage])).toEqual([
      ['@webhook-gateway/agent:framing', RENDER_STAGES.framing],
      ['@webhook-gateway/agent:skills', RENDER_STAGES.skills],
    ]);
  });

  it('gives an openai run the skill first, then the template output fenced as untrusted', async () => {
    const prompt = await render({ runner: 'openai', skills: ['code-review'] });
    expect(prompt).toBe(`Skill "code-review":\n${SKILL}\n\n${framed(PROMPT)}`);
  });

  it('gives dry-run and command runs the skill before the template output, unframed', async () => {
    for (const runner of ['dry-run', 'command']) {
      expect(await render({ runner, skills: ['code-review'] })).toBe(
        `Skill "code-review":\n${SKILL}\n\n${PROMPT}`,
      );
    }
  });

  it('leaves a dry-run prompt of a route without skills exactly as the template made it', async () => {
    expect(await render({ runner: 'dry-run' })).toBe(PROMPT);
  });

  it('loads the first skill found once per render, warns about missing ones before it, never loads later ones', async () => {
    const log = silentLogger();
    const warn = vi.spyOn(log, 'warn');
    const prompt = await render({
      runner: 'openai',
      skills: ['security-audit', 'code-review', 'triage'],
      log,
    });
    expect(prompt).toContain(SKILL);
    expect(prompt).not.toContain('SKILL: label the issue.');
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[1])).toMatch(/skill "security-audit" was not found/);
  });

  it('fences what a tap at the default stage adds; a tap above framing stays outside', async () => {
    hooks.render.tap('payload-extra', (prompt) => `${prompt}\nfrom the payload`);
    hooks.render.tap(
      { name: 'operator-note', stage: RENDER_STAGES.framing + 1 },
      (prompt) => `Be brief.\n\n${prompt}`,
    );
    const prompt = await render({ runner: 'openai', skills: ['code-review'] });
    expect(prompt).toBe(
      `Skill "code-review":\n${SKILL}\n\nBe brief.\n\n${framed(`${PROMPT}\nfrom the payload`)}`,
    );
  });

  it('uses a new random nonce for each render', async () => {
    const random = createHooks();
    tapRender(random.render, '@webhook-gateway/agent');
    const context = renderContext({ runner: 'openai', home });
    const nonces = await Promise.all(
      [1, 2].map(async () => {
        const prompt = await random.render.promise(PROMPT, context);
        return /^EVENT DATA END ([0-9a-f]{12})>>>$/m.exec(prompt)?.[1];
      }),
    );
    expect(nonces[0]).toMatch(/^[0-9a-f]{12}$/);
    expect(nonces[1]).toMatch(/^[0-9a-f]{12}$/);
    expect(nonces[0]).not.toBe(nonces[1]);
  });
});
