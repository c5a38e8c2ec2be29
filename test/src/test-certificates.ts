/**
 * A throwaway CA plus serving and client certificates for the end-to-end tests (https bridge hooks,
 * client-certificate authentication of the "apiserver"), made with a maintained X.509 library.
 */
import 'reflect-metadata'; // @peculiar/x509 uses tsyringe, which needs the Reflect metadata polyfill
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

export interface TestCertificate {
  readonly certPem: string;
  readonly keyPem: string;
}

export interface TestCa extends TestCertificate {
  /** base64 of the CA PEM, as in clientConfig.caBundle. */
  readonly caBundle: string;
  issue(options: { commonName: string; dns?: string[]; ips?: string[]; client?: boolean }): Promise<TestCertificate>;
}

export async function createTestCa(commonName = 'hookgate-e2e-ca'): Promise<TestCa> {
  const keys = await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
  const notBefore = new Date(Date.now() - 60_000);
  const notAfter = new Date(Date.now() + 24 * 3600_000);
  const ca = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name: `CN=${commonName}`,
    notBefore,
    notAfter,
    keys,
    signingAlgorithm: ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
    ],
  });
  const certPem = ca.toString('pem');
  let serial = 1;
  return {
    certPem,
    keyPem: await exportKeyPem(keys.privateKey),
    caBundle: Buffer.from(certPem).toString('base64'),
    async issue({ commonName: cn, dns = [], ips = [], client = false }) {
      serial += 1;
      const leafKeys = await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
      const names = [
        ...dns.map((value) => ({ type: 'dns' as const, value })),
        ...ips.map((value) => ({ type: 'ip' as const, value })),
      ];
      const leaf = await x509.X509CertificateGenerator.create({
        serialNumber: serial.toString(16).padStart(2, '0'),
        subject: `CN=${cn}`,
        issuer: ca.subject,
        notBefore,
        notAfter,
        signingKey: keys.privateKey,
        publicKey: leafKeys.publicKey,
        signingAlgorithm: ALGORITHM,
        extensions: [
          new x509.BasicConstraintsExtension(false, undefined, true),
          new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment, true),
          new x509.ExtendedKeyUsageExtension([
            client ? x509.ExtendedKeyUsage.clientAuth : x509.ExtendedKeyUsage.serverAuth,
          ]),
          ...(names.length > 0 ? [new x509.SubjectAlternativeNameExtension(names)] : []),
        ],
      });
      return { certPem: leaf.toString('pem'), keyPem: await exportKeyPem(leafKeys.privateKey) };
    },
  };
}

async function exportKeyPem(key: webcrypto.CryptoKey): Promise<string> {
  const der = await webcrypto.subtle.exportKey('pkcs8', key);
  return x509.PemConverter.encode(der, 'PRIVATE KEY');
}
