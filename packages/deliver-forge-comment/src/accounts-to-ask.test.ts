import { parseConfig } from '@webhook-gateway/core';
import { describe, expect, it } from 'vitest';
import { loopCanStart, platformsToAsk } from './accounts-to-ask.js';

/** A config with one route delivering to `deliver` and hearing `events`. */
function routeTo(deliver: string, events: string[]) {
  return parseConfig({
    platforms: {
      webhook: {
        extra: { host: '127.0.0.1', routes: { r: { secret: 's', deliver, events } } },
      },
    },
  });
}

describe('platformsToAsk', () => {
  it('asks for the account a review target posts line comments as, when its route hears comments', () => {
    expect(platformsToAsk(routeTo('forge_review', ['pull_request_review_comment']))).toEqual({
      forge: true,
      altforge: false,
    });
    expect(platformsToAsk(routeTo('altforge_review', []))).toEqual({
      forge: false,
      altforge: true,
    });
  });

  it('asks nothing for a review route that hears no comments', () => {
    expect(platformsToAsk(routeTo('forge_review', ['pull_request']))).toEqual({
      forge: false,
      altforge: false,
    });
  });
});

describe('loopCanStart', () => {
  it("is true for another forge's targets when their route hears its comment events", () => {
    const gitea = ['gitea_comment', 'gitea_review'];
    expect(loopCanStart(routeTo('gitea_comment', ['issue_comment']), gitea)).toBe(true);
    expect(loopCanStart(routeTo('gitea_review', ['pull_request']), gitea)).toBe(false);
    const bitbucket = ['bitbucket_comment'];
    expect(loopCanStart(routeTo('bitbucket_comment', ['pr:comment:added']), bitbucket)).toBe(true);
    expect(loopCanStart(routeTo('bitbucket_comment', ['pullrequest:created']), bitbucket)).toBe(
      false,
    );
  });
});
