/**
 * TLS for the admission listener: a self-managed private CA and loopback serving certificate in
 * the state directory (created on first start, renewed before expiry), or operator-provided files;
 * hot-reloaded either way.
 *
 *   const tls = await openTlsMaterial({ stateDir, certFile, keyFile, clientCAFile, log });
 *   https.createServer(httpsServerOptions(tls.current()));  tls.onChange((m) => server.setSecureContext(secureContextOptions(m)));
 *   // hookgate print-webhooks:
 *   caBundleOf(await ensureSelfManagedCertificates({ stateDir }))
 */
export { openTlsMaterial, httpsServerOptions, secureContextOptions, caBundleOf } from './tls-material.js';
export type { TlsMaterial, TlsMaterialSource, TlsSourceOptions } from './tls-material.js';
export { ensureSelfManagedCertificates, selfManagedPaths } from './self-managed.js';
export type { SelfManagedMaterial, SelfManagedOptions } from './self-managed.js';
export { SERVING_IPS, SERVING_DNS_NAMES } from './certificate-authority.js';
export { RENEW_AT_FRACTION } from './inspect-certificate.js';
export {
  createCa,
  exportCa,
  importCa,
  promoteNextCa,
  dropPreviousCa,
  trustedCaBundle,
  summarizeCa,
  CaFileError,
  type CaSlot,
  type CaSummary,
} from './ca-files.js';
