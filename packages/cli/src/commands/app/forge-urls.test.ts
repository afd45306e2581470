import { describe, expect, it } from 'vitest';
import { OptionsError } from '../deliveries/options.js';
import { forgeUrls, newAppUrl } from './forge-urls.js';

describe('forgeUrls', () => {
  it('is github.com and its API when nothing says otherwise', () => {
    expect(forgeUrls(undefined, undefined)).toEqual({
      githubUrl: 'https://github.com',
      apiUrl: 'https://api.github.com',
    });
  });

  it('derives an Enterprise Server’s API from --github-url', () => {
    expect(forgeUrls('https://ghe.example.com/', 'https://api.github.com')).toEqual({
      githubUrl: 'https://ghe.example.com',
      apiUrl: 'https://ghe.example.com/api/v3',
    });
  });

  it('reads the forge from platforms.forge.api_url without --github-url', () => {
    expect(forgeUrls(undefined, 'https://ghe.example.com/api/v3/')).toEqual({
      githubUrl: 'https://ghe.example.com',
      apiUrl: 'https://ghe.example.com/api/v3',
    });
    expect(forgeUrls(undefined, 'https://api.github.com')).toEqual({
      githubUrl: 'https://github.com',
      apiUrl: 'https://api.github.com',
    });
  });

  it('asks for --github-url when the API URL has another shape', () => {
    expect(() => forgeUrls(undefined, 'https://proxy.example.com/github')).toThrow(OptionsError);
  });
});

describe('newAppUrl', () => {
  it('is the user’s or the organisation’s new-App page, with the state', () => {
    expect(newAppUrl('https://github.com', undefined, 'abc')).toBe(
      'https://github.com/settings/apps/new?state=abc',
    );
    expect(newAppUrl('https://github.com', 'acme', 'abc')).toBe(
      'https://github.com/organizations/acme/settings/apps/new?state=abc',
    );
  });
});
