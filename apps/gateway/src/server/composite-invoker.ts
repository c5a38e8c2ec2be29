/**
 * One HookInvoker for the chain: `plugin` targets go to the gRPC plugin invoker, `url`/`service`
 * targets to the HTTP bridge. The chain never knows which transport served a hook.
 */
import type { HookInvoker } from '@hookgate/admission';

export interface TransportInvokers {
  readonly plugin: HookInvoker;
  readonly bridge: HookInvoker;
}

export function routeByTarget(transports: TransportInvokers): HookInvoker {
  return ((call, signal) =>
    call.hook.target.kind === 'plugin'
      ? transports.plugin(call, signal)
      : transports.bridge(call, signal)) satisfies HookInvoker;
}
