/**
 * The gateway's Registry: plugins register their target and webhook configurations over the
 * gateway's unix socket, under a lease. A registered hook with failurePolicy Fail never vanishes
 * because its plugin died: after the lease runs out it fails closed until deregistered on purpose
 * (its Ignore hooks are dropped). Registrations are kept across gateway restarts in the state directory.
 *
 * How `hookgate serve` runs it (apps/gateway/src/runtime), the one way it is wired:
 *   - the cluster primary owns the RegistrationStore and the gRPC server (primary-registry.ts:
 *     startRegistry with `<stateDir>/registrations.json`), counts refusals and leases in metrics,
 *     and checks every configuration reload against the registrations (store.replaceStatic): a
 *     static name a registration holds fails the reload like an invalid file;
 *   - every store change (renewals included) goes to the workers as a RegistrySnapshot over the
 *     cluster IPC, and each configuration carries the snapshot it was checked against (messages.ts);
 *   - a worker's WorkerState (worker-state.ts) merges configuration + snapshot with
 *     mergeHookSources into one HookSet, keeps a client per plugin in its PluginSet (plugin-set.ts:
 *     a re-registered plugin gets a fresh one, replaced clients are closed after 45 s), and wraps
 *     each request's plugin invoker with createLeaseGuard, which reads the latest snapshot.
 * registry.e2e.test.ts runs exactly these parts in one process.
 */
export {
  RegistrationStore,
  DEFAULT_LEASE_SECONDS,
  hookNames,
  type RegistrationStoreOptions,
} from './registration-store.js';
export { mergeHookSources, type MergedHookSources } from './merge-hook-sources.js';
export {
  leaseGuard,
  createLeaseGuard,
  createLeaseGroupGuard,
  leaseExpiredFailure,
  type LeaseGuardOptions,
} from './lease-guard.js';
export { startLeaseSweeper, type LeaseSweeper } from './lease-sweeper.js';
export { startRegistryServer, type RegistryServer, type RegistryServerOptions } from './registry-server.js';
export { startRegistry, type RunningRegistry, type StartRegistryOptions } from './start-registry.js';
export { loadRegistrations, RegistrationFileWriter } from './registration-file.js';
export { parseRegistration, type ParsedRegistration, type ParseOptions } from './parse-registration.js';
export type { SocketMode } from './registry-socket.js';
export type { RefusalListener } from './registry-service.js';
export type { RegistryLogger } from './logger.js';
export type * from './types.js';
