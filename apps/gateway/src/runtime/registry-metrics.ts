/**
 * The Registry's metrics, recorded by the cluster primary (which runs the Registry) next to the
 * configuration reload metrics. Labels are bounded: operation, refusal kind and lease state only,
 * never plugin names (a plugin can pick any name it likes).
 */
import { Counter, Gauge, type Registry } from 'prom-client';
import type { RegistryRefusal, RegistrySnapshot } from '../registry/index.js';

export interface RegistryMetrics {
  refused(operation: 'register' | 'deregister', refusal: RegistryRefusal): void;
  snapshot(snapshot: RegistrySnapshot): void;
}

export function createRegistryMetrics(registry: Registry): RegistryMetrics {
  const registers = [registry];
  const refusals = new Counter<'operation' | 'reason'>({
    name: 'hookgate_registry_refusals_total',
    help: 'Register and Deregister calls the Registry refused, by operation and reason (invalid, conflict, static, not-found).',
    labelNames: ['operation', 'reason'],
    registers,
  });
  const registrations = new Gauge<'lease'>({
    name: 'hookgate_registry_registrations',
    help: 'Registered plugins, by lease state; expired ones keep their failurePolicy Fail hooks, failing closed.',
    labelNames: ['lease'],
    registers,
  });
  const generation = new Gauge({
    name: 'hookgate_registry_generation',
    help: 'Generation of the registered hooks; it changes whenever a registration changes the hooks served.',
    registers,
  });
  for (const reason of ['invalid', 'conflict', 'static', 'outside-registration'] as const)
    refusals.inc({ operation: 'register', reason }, 0);
  return {
    refused(operation, refusal) {
      refusals.inc({ operation, reason: refusal.kind });
    },
    snapshot(snapshot) {
      const expired = snapshot.registrations.filter((r) => r.lease === 'expired').length;
      registrations.set({ lease: 'active' }, snapshot.registrations.length - expired);
      registrations.set({ lease: 'expired' }, expired);
      generation.set(snapshot.generation);
    },
  };
}
