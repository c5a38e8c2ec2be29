/**
 * One HookInvoker for the chain: `plugin` targets go to the gRPC plugin invoker, `url`/`service`
 * targets to the HTTP bridge. The chain never knows which transport served a hook.
 */
import type { HookCall, HookGroupInvoker, HookInvoker, HookReply } from '@hookgate/admission';

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

export interface GroupTransportInvokers {
  /** The plugin calls of the group, together (one message per batch-capable plugin). */
  readonly plugin: HookGroupInvoker;
  readonly bridge: HookInvoker;
}

/** The chain's calls started together: the plugin ones as a group, the bridged ones one by one. */
export function routeTogetherByTarget(transports: GroupTransportInvokers): HookGroupInvoker {
  return ((calls, signal) =>
    splitGroup(
      calls,
      (call) => (call.hook.target.kind === 'plugin' ? undefined : transports.bridge(call, signal)),
      (rest) => transports.plugin(rest, signal),
    )) satisfies HookGroupInvoker;
}

/**
 * One reply per call, in order: `alone` answers the calls it takes (a promise) and leaves the others
 * (undefined), which go to `rest` together.
 */
export function splitGroup(
  calls: readonly HookCall[],
  alone: (call: HookCall) => Promise<HookReply> | undefined,
  rest: (calls: readonly HookCall[]) => readonly Promise<HookReply>[],
): Promise<HookReply>[] {
  const replies = new Array<Promise<HookReply>>(calls.length);
  const together: HookCall[] = [];
  const at: number[] = [];
  calls.forEach((call, k) => {
    const reply = alone(call);
    if (reply !== undefined) replies[k] = reply;
    else {
      together.push(call);
      at.push(k);
    }
  });
  if (together.length > 0) rest(together).forEach((reply, i) => (replies[at[i]!] = reply));
  return replies;
}
