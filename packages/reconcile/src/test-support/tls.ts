/**
 * A self-signed certificate for 127.0.0.1, written to a temp file that gh trusts through
 * `SSL_CERT_FILE` (gh is Go: it reads that, not Node's NODE_EXTRA_CA_CERTS).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import selfsigned from 'selfsigned';

export interface LoopbackCertificate {
  key: string;
  cert: string;
  /** The certificate as a file, for `SSL_CERT_FILE`. */
  caFile: string;
  cleanup(): void;
}

export async function loopbackCertificate(): Promise<LoopbackCertificate> {
  const pems = await selfsigned.generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keySize: 2048,
    extensions: [
      { name: 'basicConstraints', cA: true },
      { name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] },
    ],
  });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wg-fake-forge-tls-'));
  const caFile = path.join(dir, 'ca.pem');
  fs.writeFileSync(caFile, pems.cert);
  return {
    key: pems.private,
    cert: pems.cert,
    caFile,
    cleanup: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}
