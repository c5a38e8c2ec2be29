/**
 * The gateway's Registry: plugins register their target and webhook configurations over the
 * gateway's unix socket, under a lease. A registered failurePolicy Fail hook never vanishes because
 * its plugin died: after the lease runs out it fails closed until deregistered on purpose (its
 * Ignore hooks are dropped). Registrations are kept across gateway restarts in the state directory.
 *
 *   // at start, in the process that serves admission (the primary, with node:cluster):
 *   const staticSide = { plugins: config.plugins, configurations };              // StaticSources
 *   const store = new RegistrationStore({ static: staticSide });
 *   const served = new ServedHooks({ static: staticSide, store, createClient: (p) => createPluginClient(p.name, p.target, {
 *     ...tlsAndStreamOf(p),                                                      // from config.plugins when p.source === 'static'
 *     channelOptions: { 'grpc.use_local_subchannel_pool': 1 },                   // a plugin that came back gets a fresh connection
 *   }) });
 *   const registry = config.registry.disabled ? undefined : await startRegistry({
 *     store, socket: config.registry.socket, stateFile: path.join(config.stateDir, 'registrations.json'), logger });
 *
 *   // per admission review:
 *   const { hooks, clients } = served.current;                                 // one consistent pair per request
 *   const invoke = leaseGuard(() => store.snapshot(), routeByTarget({ plugin: pluginInvoker(clients, { received }), bridge }),
 *     { socket: config.registry.socket });
 *   await runValidating(hooks, request, { ...env, invoke });
 *
 *   // on configuration reload: served.reload(newStaticSide) — refused (conflict) → keep the last good configuration.
 *   // at shutdown: await registry?.close(); served.close();
 */
export { RegistrationStore, DEFAULT_LEASE_SECONDS, hookNames, type RegistrationStoreOptions } from './registration-store.js';
export { mergeHookSources, type MergedHookSources } from './merge-hook-sources.js';
export { ServedHooks, type ServedHooksOptions, type ServedState } from './served-hooks.js';
export { leaseGuard, createLeaseGuard, leaseExpiredFailure, type LeaseGuardOptions } from './lease-guard.js';
export { startLeaseSweeper, type LeaseSweeper } from './lease-sweeper.js';
export { startRegistryServer, type RegistryServer, type RegistryServerOptions } from './registry-server.js';
export { startRegistry, type RunningRegistry, type StartRegistryOptions } from './start-registry.js';
export { loadRegistrations, RegistrationFileWriter } from './registration-file.js';
export { reconcilePluginClients, type Closable, type ReconciledClients } from './plugin-clients.js';
export { parseRegistration, type ParsedRegistration, type ParseOptions } from './parse-registration.js';
export { pluginTargetProblem } from './plugin-target.js';
export type { SocketMode } from './registry-socket.js';
export type { RegistryLogger } from './logger.js';
export type * from './types.js';
