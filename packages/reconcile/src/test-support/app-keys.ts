/**
 * A GitHub App for reconcile's tests: its key pair (the private key written as `app.pem`, mode
 * 0600, as the forge hands it out), and this process's HTTPS client (undici, which the App client
 * uses) trusting the fake forge's certificate, as `NODE_EXTRA_CA_CERTS` does for a process.
 */
import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { rootCertificates } from 'node:tls';
import { Agent, getGlobalDispatcher, setGlobalDispatcher } from 'undici';

export interface TestApp {
  /** PEM (SPKI), for the fake forge. */
  publicKey: string;
  /** The private key file, for `platforms.forge.app.private_key_file`. */
  keyFile: string;
  /** Removes the key file. */
  cleanup(): void;
}

/** A new 2048-bit RSA key pair, the private key in a file of its own. */
export function makeTestApp(): TestApp {
  const pair = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wg-reconcile-app-'));
  const keyFile = path.join(dir, 'app.pem');
  fs.writeFileSync(keyFile, pair.privateKey, { mode: 0o600 });
  return {
    publicKey: pair.publicKey,
    keyFile,
    cleanup: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/** Trusts `caFile` besides the usual roots; returns a function that undoes it. */
export function trustFakeForge(caFile: string): () => void {
  const previous = getGlobalDispatcher();
  setGlobalDispatcher(
    new Agent({ connect: { ca: [...rootCertificates, fs.readFileSync(caFile, 'utf8')] } }),
  );
  return () => setGlobalDispatcher(previous);
}
