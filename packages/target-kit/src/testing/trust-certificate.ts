/**
 * Makes this process's fetch (Node's, and undici's: an in-process gateway's calls) trust a fake's
 * self-signed certificate besides the usual roots, as `NODE_EXTRA_CA_CERTS` does for a gateway
 * started as a process. Several fakes may be trusted at once and untrusted in any order.
 */
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import { Agent, getGlobalDispatcher, setGlobalDispatcher, type Dispatcher } from 'undici';

const trusted = new Map<symbol, string>();
/** The dispatcher before the first trust, put back once nothing is trusted. */
let original: Dispatcher | undefined;
let installed: Agent | undefined;

function install(): void {
  const replaced = installed;
  installed = undefined;
  if (trusted.size > 0) {
    installed = new Agent({ connect: { ca: [...rootCertificates, ...trusted.values()] } });
    setGlobalDispatcher(installed);
  } else if (original) {
    setGlobalDispatcher(original);
    original = undefined;
  }
  // Lets its open requests finish; new ones go to the new dispatcher.
  void replaced?.close();
}

/**
 * Trusts the PEM certificate in `certFile`; returns a function that undoes it.
 *
 * @example
 * const untrust = trustCertificate(fake.certFile);
 * afterAll(untrust);
 */
export function trustCertificate(certFile: string): () => void {
  original ??= getGlobalDispatcher();
  const key = Symbol(certFile);
  trusted.set(key, readFileSync(certFile, 'utf8'));
  install();
  return () => {
    if (trusted.delete(key)) install();
  };
}
