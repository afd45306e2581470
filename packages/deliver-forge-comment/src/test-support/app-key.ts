/** A GitHub App's key pair as the forge hands it out: a PKCS#1 PEM private key (`app.pem`). */
import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export interface AppKeyPair {
  privateKey: string;
  publicKey: string;
}

let made: AppKeyPair | undefined;

/** One 2048-bit RSA pair per test file (making one takes a while). */
export function appKeyPair(): AppKeyPair {
  made ??= generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  return made;
}

/** Writes the private key to `<dir>/app.pem` with `mode` (0600 as `app create` writes it). */
export function writeAppKey(dir: string, mode = 0o600): string {
  const file = path.join(dir, 'app.pem');
  fs.writeFileSync(file, appKeyPair().privateKey, { mode });
  fs.chmodSync(file, mode);
  return file;
}
