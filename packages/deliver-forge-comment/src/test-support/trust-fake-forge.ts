/**
 * Makes this test process's HTTPS calls (undici, which the App client uses) trust the fake forge's
 * self-signed certificate, as `NODE_EXTRA_CA_CERTS` does for a gateway started as a process.
 */
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import { Agent, getGlobalDispatcher, setGlobalDispatcher, type Dispatcher } from 'undici';

/** Trusts `certFile` besides the usual roots; returns a function that undoes it. */
export function trustFakeForge(certFile: string): () => void {
  const previous: Dispatcher = getGlobalDispatcher();
  setGlobalDispatcher(
    new Agent({ connect: { ca: [...rootCertificates, readFileSync(certFile, 'utf8')] } }),
  );
  return () => setGlobalDispatcher(previous);
}
