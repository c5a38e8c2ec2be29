/**
 * buildGateway with real parts for unit tests: hooks compiled from webhook configuration objects,
 * the real HTTP bridge, static namespaces, a real metrics registry, and a logger whose lines the
 * test can read back. Driven with fastify's inject (no admission port).
 */
import { Writable } from 'node:stream';
import { compileHooks, parseWebhookConfiguration, type HookSet } from '@hookgate/admission';
import { createGatewayMetrics, createLogger, createMetricsRegistry } from '@hookgate/observability';
import type { FastifyInstance } from 'fastify';
import { createBridgeInvoker, type BridgeInvoker } from '../bridge/bridge-invoker.js';
import { staticNamespaces } from '../namespaces/static-namespaces.js';
import { buildGateway, type GatewayOptions } from '../server/build-gateway.js';
import type { PluginClients } from '../grpc/index.js';
import type { GatewayState } from '../server/gateway-state.js';
import { loggingSideEffectSink, type SideEffectSink } from '../server/side-effects.js';
import type { Registry } from 'prom-client';

export interface TestGateway {
  readonly app: FastifyInstance;
  readonly registry: Registry;
  readonly logs: Record<string, unknown>[];
  /** Replace the served hooks (a reload). */
  swap(configs: readonly unknown[]): void;
  close(): Promise<void>;
}

export function compileTestConfigs(configs: readonly unknown[]): HookSet {
  const parsed = configs.map((c, i) => {
    const result = parseWebhookConfiguration(c, { allowHttpLoopback: true });
    if (!result.ok) throw new Error(`test configuration ${i} is invalid: ${JSON.stringify(result.error)}`);
    return result.value;
  });
  return compileHooks(parsed);
}

export function startTestGateway(
  configs: readonly unknown[],
  options: GatewayOptions = {},
  sink?: SideEffectSink,
  /** Clients of the plugins the configurations' `clientConfig.plugin` hooks name (closed by the test). */
  plugins: PluginClients = new Map(),
): TestGateway {
  const logs: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString('utf8').split('\n'))
        if (line.trim() !== '') logs.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const logger = createLogger({ component: 'gateway', level: 'debug', destination });
  const registry = createMetricsRegistry();
  const metrics = createGatewayMetrics(registry);
  const now = () => performance.now();
  const bridge: BridgeInvoker = createBridgeInvoker({ now });
  const namespaces = staticNamespaces([{ name: 'default', labels: { team: 'a' } }]).lookup;
  let state: GatewayState = {
    generation: 1,
    hooks: compileTestConfigs(configs),
    plugins,
    namespaces,
    budget: { minMarginMs: 500 },
  };
  const app = buildGateway(options, {
    state: { current: () => state },
    bridge: bridge.invoke,
    logger,
    metrics,
    sideEffects: sink ?? loggingSideEffectSink(logger, metrics),
    now,
  });
  return {
    app,
    registry,
    logs,
    swap(next) {
      state = {
        generation: state.generation + 1,
        hooks: compileTestConfigs(next),
        plugins,
        namespaces,
        budget: { minMarginMs: 500 },
      };
    },
    async close() {
      await app.close();
      await bridge.close();
    },
  };
}
