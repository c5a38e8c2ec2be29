/** PEM blocks: splitting a file that holds a key and certificates, and joining them back. */

export interface PemBlock {
  readonly label: string;
  /** The whole block, BEGIN to END line, newline-terminated. */
  readonly text: string;
}

const BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----\r?\n[\s\S]*?-----END \1-----/g;

export function splitPem(text: string): PemBlock[] {
  return [...text.matchAll(BLOCK)].map((m) => ({ label: m[1]!, text: `${m[0].replace(/\r\n/g, '\n')}\n` }));
}

const isPrivateKey = (b: PemBlock) => b.label.endsWith('PRIVATE KEY');

/** The first private key and all certificates of a PEM text, or undefined when either is missing. */
export function splitKeyAndCerts(text: string): { keyPem: string; certPem: string } | undefined {
  const blocks = splitPem(text);
  const key = blocks.find(isPrivateKey);
  const certs = blocks.filter((b) => b.label === 'CERTIFICATE');
  if (key === undefined || certs.length === 0) return undefined;
  return { keyPem: key.text, certPem: certs.map((b) => b.text).join('') };
}

export function certificatesOf(text: string): string[] {
  return splitPem(text)
    .filter((b) => b.label === 'CERTIFICATE')
    .map((b) => b.text);
}
