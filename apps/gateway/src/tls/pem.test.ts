import { describe, expect, it } from 'vitest';
import { certificatesOf, splitKeyAndCerts, splitPem } from './pem.js';

const block = (label: string, body: string) => `-----BEGIN ${label}-----\n${body}\n-----END ${label}-----\n`;
const key = block('PRIVATE KEY', 'a2V5');
const cert1 = block('CERTIFICATE', 'Y2VydDE=');
const cert2 = block('CERTIFICATE', 'Y2VydDI=');

describe('pem', () => {
  const cases = [
    { name: 'key then certificates', text: key + cert1 + cert2, want: { keyPem: key, certPem: cert1 + cert2 } },
    {
      name: 'certificate before key, with comments',
      text: `# bundle\n${cert1}junk\n${key}`,
      want: { keyPem: key, certPem: cert1 },
    },
    { name: 'CRLF line ends', text: (key + cert1).replace(/\n/g, '\r\n'), want: { keyPem: key, certPem: cert1 } },
    {
      name: 'EC key label',
      text: block('EC PRIVATE KEY', 'ZWM=') + cert1,
      want: { keyPem: block('EC PRIVATE KEY', 'ZWM='), certPem: cert1 },
    },
    { name: 'no key', text: cert1, want: undefined },
    { name: 'no certificate', text: key, want: undefined },
  ];
  for (const c of cases) it(`splitKeyAndCerts: ${c.name}`, () => expect(splitKeyAndCerts(c.text)).toEqual(c.want));

  it('lists blocks and certificates in order', () => {
    expect(splitPem(cert1 + key).map((b) => b.label)).toEqual(['CERTIFICATE', 'PRIVATE KEY']);
    expect(certificatesOf(cert2 + key + cert1)).toEqual([cert2, cert1]);
  });
});
