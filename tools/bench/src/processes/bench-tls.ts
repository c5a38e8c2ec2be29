/**
 * The bridge scenario's certificates: a private CA and a serving certificate for 127.0.0.1 made
 * by the gateway's own self-managed TLS code, written where the https webhooks and the gateway
 * read them. The load generator and the bridge trust the CA.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ensureSelfManagedCertificates } from '@hookgate/gateway/tls';
import type { TlsFiles } from './start-hooks.js';

export interface BenchTls {
  readonly files: TlsFiles;
  readonly caPem: string;
}

export async function benchTls(workDir: string): Promise<BenchTls> {
  const stateDir = path.join(workDir, 'bench-tls');
  const material = await ensureSelfManagedCertificates({ stateDir });
  const files = { certFile: path.join(stateDir, 'serving-cert.pem'), keyFile: path.join(stateDir, 'serving-key.pem') };
  await writeFile(files.certFile, material.cert, { mode: 0o600 });
  await writeFile(files.keyFile, material.key, { mode: 0o600 });
  return { files, caPem: material.ca };
}
