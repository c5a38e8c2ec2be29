/** Operator-provided certificate and key files: read, check the pair, and find the CA for caBundle. */
import { X509Certificate } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { keyMatchesCertificate, validityOf } from './inspect-certificate.js';
import { certificatesOf, splitPem } from './pem.js';

export interface OperatorMaterial {
  readonly key: string;
  readonly cert: string;
  /** The issuers in certFile after the leaf, or the leaf itself when self-signed; else unknown. */
  readonly ca?: string;
  readonly notAfter: Date;
}

export async function readOperatorFiles(certFile: string, keyFile: string): Promise<OperatorMaterial> {
  const [certText, keyText] = await Promise.all([readFile(certFile, 'utf8'), readFile(keyFile, 'utf8')]);
  const certs = certificatesOf(certText);
  const key = splitPem(keyText).find((b) => b.label.endsWith('PRIVATE KEY'))?.text;
  if (certs.length === 0) throw new Error(`${certFile} holds no PEM certificate`);
  if (key === undefined) throw new Error(`${keyFile} holds no PEM private key`);
  const cert = certs.join('');
  if (!keyMatchesCertificate({ keyPem: key, certPem: certs[0]! })) {
    throw new Error(`${keyFile} is not the key of the certificate in ${certFile}; replace both files together`);
  }
  return { key, cert, ca: caOf(certs), notAfter: validityOf(certs[0]!).notAfter };
}

export async function readClientCa(clientCAFile: string): Promise<string> {
  const certs = certificatesOf(await readFile(clientCAFile, 'utf8'));
  if (certs.length === 0) throw new Error(`${clientCAFile} holds no PEM certificate`);
  return certs.join('');
}

function caOf(certs: string[]): string | undefined {
  if (certs.length > 1) return certs.slice(1).join('');
  const leaf = new X509Certificate(certs[0]!);
  return leaf.checkIssued(leaf) && leaf.verify(leaf.publicKey) ? certs[0] : undefined;
}
