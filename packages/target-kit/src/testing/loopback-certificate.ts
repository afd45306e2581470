/**
 * A fresh self-signed certificate for 127.0.0.1, made with the real `openssl`, for fakes of
 * outside services over TLS. Its PEM file is what a client trusts: `trustCertificate` for this
 * process's fetch, `NODE_EXTRA_CA_CERTS` for a gateway started as a process, `SSL_CERT_FILE` for gh.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface LoopbackCertificate {
  key: Buffer;
  cert: Buffer;
  /** The certificate as a PEM file. */
  certFile: string;
  /** Deletes the key and certificate files. */
  remove(): void;
}

/** Makes the key and certificate (valid one day, for IP 127.0.0.1) in a temp dir of its own. */
export function loopbackCertificate(): LoopbackCertificate {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wg-loopback-tls-'));
  const keyFile = path.join(dir, 'key.pem');
  const certFile = path.join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      // An EC key: made in milliseconds, where RSA takes most of a second per fake.
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ],
    { stdio: 'ignore' },
  );
  return {
    key: fs.readFileSync(keyFile),
    cert: fs.readFileSync(certFile),
    certFile,
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}
