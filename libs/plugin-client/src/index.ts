/**
 * @hookgate/plugin-client: the gRPC client of one Hookgate plugin, shared by every process that
 * calls plugins (the gateway admits, the controller reconciles). Transport only: what an answer
 * means for admission is the caller's business.
 *
 *   // once per plugin, kept for the process's life (or until the plugin moves):
 *   const client = createPluginClient('pod-defaults', 'unix:///run/hookgate/pod-defaults.sock', { tls });
 *   // an admit call (the message is built once the plugin's capabilities are known):
 *   const outcome = await client.admit((capabilities) => message, timeoutMs, signal);
 *   // a side effect to reconcile:
 *   const reply = await client.reconcile(request, { deadline: Date.now() + 10_000, signal });
 *   if (reply.ok) reply.response.done;
 *   client.close();
 */
export {
  createPluginClient,
  PluginClient,
  DEFAULT_CHANNEL_OPTIONS,
  type BatchCall,
  type PluginClientOptions,
  type PluginClientStatus,
  type ReconcileCallOptions,
} from './plugin-client.js';
export {
  CircuitBreaker,
  type CircuitBreakerOptions,
  type CircuitState,
  type CircuitAdmission,
} from './circuit-breaker.js';
export { SharedDeadlineTimer } from './shared-deadline-timer.js';
export { PLAIN_CAPABILITIES, type PluginCapabilities } from './capabilities.js';
export { channelCredentials, tlsChannelOptions, type PluginTls } from './credentials.js';
export type {
  CallFailure,
  CallOutcome,
  ListHeldEffectsCallOutcome,
  ReconcileCallOutcome,
  TransportOutcome,
} from './transport-outcome.js';
