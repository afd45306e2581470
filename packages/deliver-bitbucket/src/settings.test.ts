/** `platforms.bitbucket`, validated by core's parseConfig as a gateway validates it, and its checks. */
import { ConfigError, parseConfig } from '@webhook-gateway/core';
import { describe, expect, it } from 'vitest';
import plugin, { bitbucketConfigProblems, bitbucketSettingsSchema } from './index.js';
import { hideMarkers, showMarkers } from './markers.js';
import { dataCenterConnection } from './settings.js';

function configWith(bitbucket: Record<string, unknown>, route: Record<string, unknown>) {
  return parseConfig(
    {
      platforms: {
        bitbucket,
        webhook: { extra: { routes: { reviews: { secret: 's', ...route } } } },
      },
    },
    {},
    [plugin],
  );
}

describe('platforms.bitbucket', () => {
  it("defaults to Bitbucket Cloud's API and names the key of a bad value", () => {
    expect(bitbucketSettingsSchema.parse({}).base_url).toBe('https://api.bitbucket.org/2.0');
    try {
      parseConfig({ platforms: { bitbucket: { base_url: 'nope', tokn: 'x' } } }, {}, [plugin]);
      expect.unreachable('the config was accepted');
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      expect(error.problems.map((problem) => problem.path)).toEqual([
        'platforms.bitbucket.base_url',
        'platforms.bitbucket.tokn',
      ]);
    }
  });

  it('a route delivering to Bitbucket needs the token, and a known mode', () => {
    const config = configWith({}, { deliver: 'bitbucket_comment', deliver_extra: { mode: 'x' } });
    const problems = bitbucketConfigProblems(bitbucketSettingsSchema.parse({}), config);
    expect(problems.map((problem) => problem.path)).toEqual([
      'platforms.webhook.extra.routes.reviews.deliver_extra.mode',
      'platforms.bitbucket.token',
    ]);
    expect(problems[1]?.message).toContain('route reviews delivers to Bitbucket');
  });
});

describe('platforms.bitbucket.data_center', () => {
  const problemsOf = (bitbucket: Record<string, unknown>, events: string[]) =>
    bitbucketConfigProblems(
      bitbucketSettingsSchema.parse(bitbucket),
      configWith(bitbucket, { deliver: 'bitbucket_review', events }),
    ).map((problem) => problem.path);

  it("a route hearing Data Center's pr:* events needs data_center, Cloud's pullrequest:* the token", () => {
    expect(problemsOf({ token: 'cloud' }, ['pr:opened'])).toEqual([
      'platforms.bitbucket.data_center.base_url',
    ]);
    expect(
      problemsOf({ data_center: { base_url: 'https://bb.example.com' } }, ['pr:opened']),
    ).toEqual(['platforms.bitbucket.data_center.token']);
    const dataCenter = { base_url: 'https://bb.example.com', token: 'dc' };
    expect(problemsOf({ data_center: dataCenter }, ['pr:opened'])).toEqual([]);
    expect(problemsOf({ data_center: dataCenter }, ['pullrequest:created'])).toEqual([
      'platforms.bitbucket.token',
    ]);
    // A route naming neither Bitbucket's events needs one of them.
    expect(problemsOf({ data_center: dataCenter }, [])).toEqual([]);
    expect(problemsOf({}, [])).toEqual(['platforms.bitbucket.token']);
  });

  it('needs its base_url, and takes an address ending in the API root as the server', () => {
    try {
      parseConfig({ platforms: { bitbucket: { data_center: { token: 'x' } } } }, {}, [plugin]);
      expect.unreachable('the config was accepted');
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      expect(error.problems.map((problem) => problem.path)).toEqual([
        'platforms.bitbucket.data_center.base_url',
      ]);
    }
    const settings = bitbucketSettingsSchema.parse({
      data_center: { base_url: 'https://bb.example.com/bitbucket/rest/api/1.0/', token: 't' },
    });
    expect(dataCenterConnection(settings)).toEqual({
      ok: true,
      connection: {
        serverUrl: 'https://bb.example.com/bitbucket',
        apiBase: 'https://bb.example.com/bitbucket/rest/api/1.0',
        token: 't',
      },
    });
  });
});

describe('hideMarkers', () => {
  it('writes only whole marker lines as link reference definitions', () => {
    expect(
      hideMarkers(
        '<!-- webhook-gateway:reviews -->\nBody with <!-- webhook-gateway:x --> inline\n\n<!-- webhook-gateway:delivery d-1 -->',
      ),
    ).toBe(
      '[//]: # (<!-- webhook-gateway:reviews -->)\nBody with <!-- webhook-gateway:x --> inline\n\n[//]: # (<!-- webhook-gateway:delivery d-1 -->)',
    );
  });

  const queued =
    '<!-- webhook-gateway:reviews -->\n> ⏳ Queued, 2nd: … <!-- webhook-gateway:waiting -->\n\nThe review.\n\n<!-- webhook-gateway:delivery d-1 -->';
  const hidden =
    '[//]: # (<!-- webhook-gateway:reviews -->)\n> ⏳ Queued, 2nd: …\n\n[//]: # (<!-- webhook-gateway:waiting -->)\n\nThe review.\n\n[//]: # (<!-- webhook-gateway:delivery d-1 -->)';

  it("puts a queued review's status line's marker on its own line below it", () => {
    expect(hideMarkers(queued)).toBe(hidden);
  });

  it('showMarkers gives the comment back as the gateway wrote it, and hiding that again changes nothing', () => {
    expect(showMarkers(hidden)).toBe(queued);
    const delivered = hideMarkers('> a quote\n\n<!-- webhook-gateway:delivery d-1 -->');
    expect(showMarkers(delivered)).toBe('> a quote\n\n<!-- webhook-gateway:delivery d-1 -->');
    for (const text of [hidden, delivered, 'no marker', '[//]: # (<!-- webhook-gateway:x -->)'])
      expect(hideMarkers(showMarkers(text))).toBe(text);
  });
});
