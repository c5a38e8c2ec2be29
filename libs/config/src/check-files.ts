/** Files the GatewayConfiguration names must be readable now, not at the first request that needs them. */
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { invalid } from '@hookgate/admission';
import { issueFromFieldError } from './config-error.js';
import type { DocumentIssue } from './config-error.js';
import type { GatewayConfiguration } from './gateway-configuration.js';

export function referencedFiles(g: GatewayConfiguration): [field: string, file: string][] {
  const out: [string, string | undefined][] = [
    ['admission.tls.certFile', g.admission.tls.certFile],
    ['admission.tls.keyFile', g.admission.tls.keyFile],
    ['admission.tls.clientCAFile', g.admission.tls.clientCAFile],
    ['admission.bearerTokenFile', g.admission.bearerTokenFile],
    ['kubernetes.kubeconfig', g.kubernetes.kubeconfig],
    ['registry.clientTls.certFile', g.registry.clientTls?.certFile],
    ['registry.clientTls.keyFile', g.registry.clientTls?.keyFile],
  ];
  g.plugins.forEach((p, i) => {
    out.push(
      [`plugins[${i}].tls.caFile`, p.tls?.caFile],
      [`plugins[${i}].tls.certFile`, p.tls?.certFile],
      [`plugins[${i}].tls.keyFile`, p.tls?.keyFile],
    );
  });
  return out.filter((e): e is [string, string] => e[1] !== undefined);
}

export async function checkReferencedFiles(g: GatewayConfiguration): Promise<DocumentIssue[]> {
  const checks = await Promise.all(
    referencedFiles(g).map(async ([field, file]) => {
      try {
        await access(file, constants.R_OK);
        return undefined;
      } catch (e) {
        return issueFromFieldError(
          invalid(field, file, `cannot read the file (${(e as NodeJS.ErrnoException).code ?? 'error'})`),
        );
      }
    }),
  );
  return checks.filter((c): c is DocumentIssue => c !== undefined);
}
