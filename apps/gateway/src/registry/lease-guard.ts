/**
 * Fail closed, at once, for a registered plugin whose lease ran out: the call is not attempted
 * (the plugin is presumed gone, and a half-alive one must not serve hooks it no longer renews).
 * The failure is a transport failure, so the hook's failurePolicy decides as for any dead plugin:
 * Fail rejects the request with a message that says what happened and what to do.
 */
import type { HookCall, HookFailure, HookGroupInvoker, HookInvoker } from '@hookgate/admission';
import { splitGroup } from '../server/composite-invoker.js';
import { pluginUrl } from '../grpc/failures.js';
import type { RegistrySnapshot, ServedRegistration } from './types.js';

export interface LeaseGuardOptions {
  /** Clock ms, the same clock as the store's; Date.now by default. */
  readonly now?: () => number;
  /** The registry socket, named in the message so the operator knows where to deregister. */
  readonly socket?: string;
}

/**
 * Wraps the gateway's invoker. `snapshot` returns the current registry snapshot (the store's, or
 * the copy a cluster worker received); it is read on every call, so a swap takes effect at once.
 */
export function leaseGuard(
  snapshot: () => RegistrySnapshot,
  inner: HookInvoker,
  options: LeaseGuardOptions = {},
): HookInvoker {
  return createLeaseGuard(snapshot, options)(inner);
}

/**
 * The same guard as a factory, for wrapping a fresh invoker per admission request (the gRPC
 * invoker is built per request) while sharing one per-snapshot plugin index across requests.
 */
export function createLeaseGuard(
  snapshot: () => RegistrySnapshot,
  options: LeaseGuardOptions = {},
): (inner: HookInvoker) => HookInvoker {
  const refused = leaseCheck(snapshot, options);
  return (inner) =>
    ((call, signal) => {
      const failure = refused(call);
      return failure === undefined ? inner(call, signal) : Promise.resolve({ ok: false, failure });
    }) satisfies HookInvoker;
}

/** The same guard for calls started together: the refused ones fail at once, the others go on together. */
export function createLeaseGroupGuard(
  snapshot: () => RegistrySnapshot,
  options: LeaseGuardOptions = {},
): (inner: HookGroupInvoker) => HookGroupInvoker {
  const refused = leaseCheck(snapshot, options);
  return (inner) =>
    ((calls, signal) =>
      splitGroup(
        calls,
        (call) => {
          const failure = refused(call);
          return failure === undefined ? undefined : Promise.resolve({ ok: false, failure });
        },
        (rest) => inner(rest, signal),
      )) satisfies HookGroupInvoker;
}

/** Why a call must not be attempted (its plugin's lease ran out), or undefined. */
function leaseCheck(
  snapshot: () => RegistrySnapshot,
  options: LeaseGuardOptions,
): (call: HookCall) => HookFailure | undefined {
  const now = options.now ?? Date.now;
  const byPlugin = new WeakMap<RegistrySnapshot, ReadonlyMap<string, ServedRegistration>>();
  const lookup = (plugin: string): ServedRegistration | undefined => {
    const current = snapshot();
    if (current.registrations.length === 0) return undefined;
    let index = byPlugin.get(current);
    if (index === undefined) byPlugin.set(current, (index = new Map(current.registrations.map((r) => [r.plugin, r]))));
    return index.get(plugin);
  };
  return (call) => {
    const target = call.hook.target;
    if (target.kind !== 'plugin') return undefined;
    const registration = lookup(target.plugin);
    if (registration === undefined) return undefined;
    const at = now();
    if (registration.lease === 'active' && at < registration.expiresAt) return undefined;
    return leaseExpiredFailure(registration, call.hook.name, call.timeoutSeconds, at, options.socket);
  };
}

export function leaseExpiredFailure(
  registration: Pick<ServedRegistration, 'plugin' | 'expiresAt'>,
  hook: string,
  timeoutSeconds: number,
  now: number,
  socket?: string,
): HookFailure {
  const plugin = JSON.stringify(registration.plugin);
  const ago = Math.max(0, Math.round((now - registration.expiresAt) / 1000));
  const where = socket === undefined ? 'the gateway registry' : `the gateway registry at ${socket}`;
  const detail =
    `plugin ${plugin} is gone: its registration lease expired at ${new Date(registration.expiresAt).toISOString()} (${ago}s ago) and it has not registered again; ` +
    `the hook fails closed until the plugin registers again (restart it) or is deregistered on purpose (Registry.Deregister on ${where})`;
  return {
    kind: 'transport',
    message: `failed to call webhook: Post ${JSON.stringify(pluginUrl(registration.plugin, hook, timeoutSeconds))}: ${detail}`,
    code: 503,
  };
}
