/**
 * @hookgate/gateway: the admission-webhook gateway.
 *
 *   // the `hookgate serve` command (node:cluster primary + workers):
 *   process.exitCode = await serve({ configPath: '/etc/hookgate', port: 8443 });
 *
 *   // in tests, one admission listener without ports:
 *   const app = buildGateway({}, { state, bridge: createBridgeInvoker({ now }).invoke, logger, metrics, sideEffects });
 *   const res = await app.inject({ method: 'POST', url: '/validate?timeout=10s', payload: review });
 */
export { serve, type ServeOptions } from './main.js';
export { GATEWAY_VERSION } from './version.js';
export {
  buildGateway,
  DEFAULT_BODY_LIMIT_BYTES,
  type GatewayDeps,
  type GatewayOptions,
} from './server/build-gateway.js';
export type { GatewayState, GatewayStateSource } from './server/gateway-state.js';
export {
  loggingSideEffectSink,
  queuedSideEffectSink,
  type ReviewFacts,
  type SideEffectContext,
  type SideEffectSink,
  type SideEffectVerdict,
} from './server/side-effects.js';
export {
  routeByTarget,
  routeTogetherByTarget,
  type GroupTransportInvokers,
  type TransportInvokers,
} from './server/composite-invoker.js';
export { createBridgeInvoker, type BridgeInvoker, type BridgeOptions } from './bridge/bridge-invoker.js';
export { resolveHookEndpoint, isLoopbackHost, type HookEndpoint } from './bridge/hook-endpoint.js';
export {
  checkServiceReferences,
  type CheckServiceReferencesOptions,
  type ServiceReferenceWarning,
} from './bridge/check-service-references.js';
export { pluginInvoker, pluginTransport, type PluginClients, type PluginTransport } from './grpc/index.js';
export { dryRunReview, openDryRun, type DryRun, type DryRunResult } from './runtime/dry-run-review.js';
