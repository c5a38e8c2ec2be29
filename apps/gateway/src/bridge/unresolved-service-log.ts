/**
 * A warn line when a hook's service reference does not resolve, at most one a minute per hook and
 * cause rather than one per request: which hook, which Service, why, and what to do. The failure
 * itself is the hook's, under its failurePolicy, in the decision log.
 */
import type { ServiceRef } from './service-address.js';

const REPEAT_AFTER_MS = 60_000;

export function unresolvedServiceLog(
  log: { warn(fields: object, message: string): void },
  now: () => number = Date.now,
): (hook: string, service: ServiceRef, error: string) => void {
  const logged = new Map<string, { error: string; at: number }>();
  return (hook, service, error) => {
    const key = `${hook}\u0000${service.namespace}/${service.name}:${service.port}`;
    const last = logged.get(key);
    if (last !== undefined && last.error === error && now() - last.at < REPEAT_AFTER_MS) return;
    logged.set(key, { error, at: now() });
    log.warn(
      { hook, service: `${service.namespace}/${service.name}`, port: service.port, error },
      'bridged webhook service reference does not resolve through the apiserver; the hook fails by its ' +
        'failurePolicy: create the Service with this port, let the gateway kubeconfig get, list and watch ' +
        'services in its namespace, or give the hook a url',
    );
  };
}
