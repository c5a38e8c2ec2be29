import { describe, expect, it } from 'vitest';
import { parseGatewayConfiguration } from './parse-gateway-configuration.js';
import { applyServeFlags } from './serve-flags.js';

const parsed = parseGatewayConfiguration(
  { apiVersion: 'hookgate.dev/v1alpha1', kind: 'GatewayConfiguration' },
  { configDir: '/c', cwd: '/w', isRoot: false, cpus: 1 },
);
const gateway = parsed.ok ? parsed.value : undefined;

describe('applyServeFlags', () => {
  const cases = [
    { name: 'no flags', flags: {}, admission: ['127.0.0.1', 8443], metrics: 9443 },
    { name: 'host and port', flags: { host: '::1', port: 0 }, admission: ['::1', 0], metrics: 9443 },
    { name: 'metrics port', flags: { metricsPort: 19443 }, admission: ['127.0.0.1', 8443], metrics: 19443 },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const g = applyServeFlags(gateway!, c.flags);
      expect([g.admission.host, g.admission.port]).toEqual(c.admission);
      expect(g.metrics.port).toBe(c.metrics);
      expect(g.admission.tls).toBe(gateway!.admission.tls);
    });
  }
});
