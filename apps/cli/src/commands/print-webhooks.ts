/**
 * `hookgate print-webhooks`: the apiserver-side Mutating/ValidatingWebhookConfiguration as YAML,
 * narrowed to what the hooks can match (registration.ts), with the managed CA as caBundle (created
 * in the state directory if it does not exist yet; with the next or previous CA during a rotation).
 */
import { formatConfigError, loadConfiguration } from '@hookgate/config';
import { caBundleOf, openTlsMaterial, trustedCaBundle } from '@hookgate/gateway/tls';
import { stringify } from 'yaml';
import { buildRegistrations } from '../registration.js';

/** The parsed `hookgate print-webhooks` flags (print-webhooks-flags.ts). */
export interface PrintWebhooksFlags {
  config: string;
  urlHost?: string;
}

export async function printWebhooksCommand(
  opts: PrintWebhooksFlags,
  out: NodeJS.WritableStream,
  err: NodeJS.WritableStream,
): Promise<number> {
  const loaded = await loadConfiguration(opts.config);
  if (!loaded.ok) {
    for (const e of loaded.error) err.write(`${formatConfigError(e)}\n`);
    return 1;
  }
  const { gateway } = loaded.value;
  let caBundle: string | undefined;
  if (gateway.admission.tls.disabled) {
    err.write('warning: admission.tls.disabled is set: the apiserver accepts only https webhook URLs\n');
  } else {
    const { tls } = gateway.admission;
    const material = await openTlsMaterial({
      stateDir: gateway.stateDir,
      ...(tls.certFile !== undefined && tls.keyFile !== undefined
        ? { certFile: tls.certFile, keyFile: tls.keyFile }
        : {}),
      watch: false,
      checkIntervalMs: 0,
    });
    // While a CA rotation is under way the bundle holds the next (or previous) CA too (`hookgate ca`).
    const trusted = tls.certFile === undefined ? await trustedCaBundle(gateway.stateDir) : undefined;
    caBundle = trusted !== undefined ? Buffer.from(trusted).toString('base64') : caBundleOf(material.current());
    await material.close();
    if (caBundle === undefined)
      err.write('warning: the serving certificate chain has no CA certificate: set caBundle yourself\n');
  }
  const host =
    opts.urlHost ??
    (gateway.admission.host === '0.0.0.0' || gateway.admission.host === '::' ? '127.0.0.1' : gateway.admission.host);
  const docs = buildRegistrations({ configuration: loaded.value, urlHost: host, ...(caBundle ? { caBundle } : {}) });
  // No anchors and aliases for the selector the webhooks share: plain YAML for kubectl, kustomize and people.
  out.write(docs.map((d) => stringify(d, { lineWidth: 0, aliasDuplicateObjects: false })).join('---\n'));
  return 0;
}
