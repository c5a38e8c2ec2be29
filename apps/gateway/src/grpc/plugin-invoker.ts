/**
 * The gRPC HookInvoker: HookCall → plugin → HookReply. Transport events become HookFailures
 * (failures.ts); failurePolicy is the chain's business, not ours.
 *
 * Build one per admission review, so that the received bytes can be forwarded:
 *   const invoke = pluginInvoker(plugins, { received: { bytes: body, form: 'review', request } });
 * Building it costs one closure; channels and streams live in the PluginClients.
 */
import type { HookCall, HookFailure, HookInvoker, HookReply } from '@hookgate/admission';
import type { CallFailure, PluginClient } from '@hookgate/plugin-client';
import { encodeCall, ReviewEncodeCache } from './encode-call.js';
import {
  canceledFailure,
  circuitOpenFailure,
  clientFailure,
  pluginUrl,
  rpcFailure,
  timeoutFailure,
} from './failures.js';
import type { ReceivedRequest } from './received-request.js';
import { verifyAnswer } from './verify-answer.js';

export interface PluginInvokerOptions {
  /** The request as received, for forwarding its bytes (see encode-call.ts). */
  readonly received?: ReceivedRequest;
  /** The clock of HookCall.deadline (the chain's env.now); Date.now by default. */
  readonly now?: () => number;
}

export type PluginClients = ReadonlyMap<string, PluginClient>;

export function pluginInvoker(clients: PluginClients, options: PluginInvokerOptions = {}): HookInvoker {
  const now = options.now ?? Date.now;
  const received = options.received;
  const cache = new ReviewEncodeCache();

  const invoke = async (call: HookCall, signal: AbortSignal): Promise<HookReply> => {
    const target = call.hook.target;
    if (target.kind !== 'plugin') {
      return fail(
        clientFailure(
          `webhook ${JSON.stringify(call.hook.name)} is not served by a plugin (clientConfig has no plugin)`,
        ),
      );
    }
    const client = clients.get(target.plugin);
    if (client === undefined) {
      return fail(
        clientFailure(
          `plugin ${JSON.stringify(target.plugin)} is not configured; declare it under plugins in the GatewayConfiguration or register it`,
        ),
      );
    }
    const url = pluginUrl(target.plugin, call.hook.name, call.timeoutSeconds);
    const timeoutMs = call.deadline - now();
    if (timeoutMs <= 0) return fail(timeoutFailure(url));
    // A call cut short by the request's budget says nothing about the plugin: its timeout is not held against it.
    const ownTimeoutBinds = timeoutMs >= call.hook.timeoutSeconds * 1000 - 1;
    const outcome = await client.admit(
      (capabilities) => encodeCall(call, capabilities, received, cache, timeoutMs),
      timeoutMs,
      signal,
      { timeoutCounts: ownTimeoutBinds },
    );
    return outcome.ok ? verifyAnswer(call, outcome.response, url) : fail(failureOf(outcome, url, target.plugin));
  };
  return invoke satisfies HookInvoker;
}

function failureOf(outcome: CallFailure, url: string, plugin: string): HookFailure {
  switch (outcome.kind) {
    case 'timeout':
      return timeoutFailure(url);
    case 'canceled':
      return canceledFailure(url);
    case 'circuit-open':
      return circuitOpenFailure(url, plugin, outcome.failures);
    case 'rpc':
      return rpcFailure(url, outcome.code, outcome.detail);
  }
}

function fail(failure: HookFailure): HookReply {
  return { ok: false, failure };
}
