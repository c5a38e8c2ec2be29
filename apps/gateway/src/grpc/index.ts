/**
 * The gateway's gRPC side: one warm client per plugin, and the HookInvoker that calls them.
 *
 *   // at startup (and on reload / registration), per plugin of the GatewayConfiguration:
 *   const plugins = new Map([['pod-defaults', createPluginClient('pod-defaults', 'unix:///run/hookgate/pod-defaults.sock')]]);
 *   // per admission review, in the route (body: the raw request Buffer, review: its decoding):
 *   const invoke = pluginInvoker(plugins, { received: { bytes: body, form: 'review', request: review.request } });
 *   // at shutdown:
 *   for (const client of plugins.values()) client.close();
 */
export {
  createPluginClient,
  PluginClient,
  DEFAULT_CHANNEL_OPTIONS,
  type PluginClientOptions,
  type PluginClientStatus,
} from './plugin-client.js';
export { pluginInvoker, type PluginClients, type PluginInvokerOptions } from './plugin-invoker.js';
export type { ReceivedRequest } from './received-request.js';
export {
  CircuitBreaker,
  type CircuitBreakerOptions,
  type CircuitState,
  type CircuitAdmission,
} from './circuit-breaker.js';
export type { PluginCapabilities } from './capabilities.js';
export type { PluginTls } from './credentials.js';
export { pluginUrl } from './failures.js';
