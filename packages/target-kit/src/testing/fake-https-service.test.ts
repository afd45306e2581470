import { afterEach, describe, expect, it } from 'vitest';
import { callService } from '../service-http.js';
import { startFakeHttpsService, type FakeHttpsService } from './fake-service.js';
import { trustCertificate } from './trust-certificate.js';

const call = (url: string) =>
  callService(
    { method: 'GET', url: `${url}/ping`, headers: {} },
    { service: 'Fake', signal: new AbortController().signal, timeoutMs: 5000 },
  );

let fakes: FakeHttpsService[] = [];
afterEach(async () => {
  await Promise.all(fakes.map((fake) => fake.close()));
  fakes = [];
});

describe('a fake service over TLS', () => {
  it('is refused until its certificate is trusted, and again once untrusted', async () => {
    const fake = await startFakeHttpsService(() => ({ status: 200, body: { pong: true } }));
    fakes.push(fake);
    expect(fake.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    await expect(call(fake.url)).rejects.toThrow(/could not reach Fake at https:\/\/127\.0\.0\.1/);

    const untrust = trustCertificate(fake.certFile);
    await expect(call(fake.url)).resolves.toMatchObject({ status: 200, body: { pong: true } });
    expect(fake.requests.map((request) => request.url)).toEqual(['/ping']);

    untrust();
    await expect(call(fake.url)).rejects.toThrow(/could not reach Fake/);
  });

  it('trusts two fakes at once, each until its own untrust', async () => {
    const first = await startFakeHttpsService(() => ({ status: 200, body: 'first' }));
    const second = await startFakeHttpsService(() => ({ status: 200, body: 'second' }));
    fakes.push(first, second);
    const untrustFirst = trustCertificate(first.certFile);
    const untrustSecond = trustCertificate(second.certFile);
    untrustFirst();
    await expect(call(second.url)).resolves.toMatchObject({ body: 'second' });
    await expect(call(first.url)).rejects.toThrow(/could not reach Fake/);
    untrustSecond();
    await expect(call(second.url)).rejects.toThrow(/could not reach Fake/);
  });
});
