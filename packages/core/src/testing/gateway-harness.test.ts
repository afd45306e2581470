import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { definePlugin } from '../index.js';
import { postPullRequest, startGateway, waitForDelivery, type RunningGateway } from './index.js';

let running: RunningGateway | undefined;
afterEach(async () => {
  await running?.gateway.stop();
  running = undefined;
});

/** A target whose options are required (as docs/plugins.md's pager's are): it keeps what it sent. */
function recordingTarget(sent: { url: string; answer: string }[]) {
  return definePlugin({
    name: '@acme/recording-target',
    provides: { targets: ['recording'] },
    options: z.object({ url: z.url() }),
    setup({ hooks }, options) {
      hooks.deliver.for('recording').tapPromise('@acme/recording-target', async ({ answer }) => {
        sent.push({ url: options.url, answer });
      });
    },
  });
}

describe('startGateway', () => {
  it('gives the plugin the options it is passed, validated by its schema', async () => {
    const sent: { url: string; answer: string }[] = [];
    running = await startGateway({
      plugin: recordingTarget(sent),
      options: { url: 'http://127.0.0.1:9/hook' },
      answer: 'looks good',
      route: { deliver: 'recording' },
    });
    expect((await postPullRequest(running.url, { number: 1 })).status).toBe(202);
    expect((await waitForDelivery(running.store)).status).toBe('delivered');
    expect(sent).toEqual([{ url: 'http://127.0.0.1:9/hook', answer: 'looks good' }]);
  });

  it('refuses options the plugin’s schema rejects, naming the key', async () => {
    await expect(
      startGateway({
        plugin: recordingTarget([]),
        options: { url: 'not a url' },
        route: { deliver: 'recording' },
      }),
    ).rejects.toThrow('plugin @acme/recording-target: invalid options: options.url');
  });
});
