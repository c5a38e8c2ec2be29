/**
 * The gRPC HookInvoker: HookCall → plugin → HookReply. Transport events become HookFailures
 * (failures.ts); failurePolicy is the chain's business, not ours.
 *
 * Build one per admission review, so that the received bytes can be forwarded:
 *   const { invoke, invokeTogether } = pluginTransport(plugins, { received: { bytes: body, form: 'review', request } });
 * `invokeTogether` (the validating hooks, started together by the chain) sends the calls of one
 * plugin that declares `admit_batch` in one message; each call keeps its own timeout and outcome.
 * Building it costs an object and two bound methods; channels and streams live in the PluginClients.
 */
import type { HookCall, HookFailure, HookGroupInvoker, HookInvoker, HookReply } from '@hookgate/admission';
import type { BatchCall, CallFailure, PluginClient, TransportOutcome } from '@hookgate/plugin-client';
import { encodeCall, encodeRequestFields, ReviewEncodeCache, shareRequest } from './encode-call.js';
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

/** The plugin transport of one review: single calls, and calls started together. */
export interface PluginTransport {
  readonly invoke: HookInvoker;
  readonly invokeTogether: HookGroupInvoker;
}

export function pluginInvoker(clients: PluginClients, options: PluginInvokerOptions = {}): HookInvoker {
  return pluginTransport(clients, options).invoke;
}

export function pluginTransport(clients: PluginClients, options: PluginInvokerOptions = {}): PluginTransport {
  const transport = new ReviewTransport(clients, options.now ?? Date.now, options.received);
  // Bound methods, not closures: under tsx (keepNames) every named closure made per review costs a defineProperty.
  return {
    invoke: transport.invoke.bind(transport) satisfies HookInvoker,
    invokeTogether: transport.invokeTogether.bind(transport) satisfies HookGroupInvoker,
  };
}

/** The plugin calls of one review: the clients, the clock, the received bytes, what the calls share. */
class ReviewTransport {
  readonly #cache = new ReviewEncodeCache();

  constructor(
    private readonly clients: PluginClients,
    private readonly now: () => number,
    private readonly received: ReceivedRequest | undefined,
  ) {}

  invoke(call: HookCall, signal: AbortSignal): Promise<HookReply> {
    const client = this.#clientOf(call);
    return isReply(client) ? Promise.resolve(client) : this.#invokeOn(client, call, signal);
  }

  invokeTogether(calls: readonly HookCall[], signal: AbortSignal): Promise<HookReply>[] {
    const replies = new Array<Promise<HookReply>>(calls.length);
    // Per plugin, the positions of its calls that can share the first one's request bytes.
    const groups = new Map<PluginClient, number[]>();
    for (let k = 0; k < calls.length; k++) {
      const call = calls[k]!;
      const client = this.#clientOf(call);
      if (isReply(client)) replies[k] = Promise.resolve(client);
      else if (call.deadline - this.now() <= 0) replies[k] = this.#invokeOn(client, call, signal);
      else {
        const group = groups.get(client);
        if (group === undefined) groups.set(client, [k]);
        else if (shareRequest(calls[group[0]!]!, call)) group.push(k);
        else replies[k] = this.#invokeOn(client, call, signal);
      }
    }
    for (const [client, positions] of groups) {
      if (positions.length === 1) {
        const k = positions[0]!;
        replies[k] = this.#invokeOn(client, calls[k]!, signal);
        continue;
      }
      const answers = this.#batch(
        client,
        positions.map((k) => calls[k]!),
        signal,
      );
      positions.forEach((k, i) => (replies[k] = answers[i]!));
    }
    return replies;
  }

  /** The client of a call's plugin, or the failure that says why there is none. */
  #clientOf(call: HookCall): PluginClient | HookReply {
    const target = call.hook.target;
    if (target.kind !== 'plugin') {
      return fail(
        clientFailure(
          `webhook ${JSON.stringify(call.hook.name)} is not served by a plugin (clientConfig has no plugin)`,
        ),
      );
    }
    const client = this.clients.get(target.plugin);
    if (client === undefined) {
      return fail(
        clientFailure(
          `plugin ${JSON.stringify(target.plugin)} is not configured; declare it under plugins in the GatewayConfiguration or register it`,
        ),
      );
    }
    return client;
  }

  async #invokeOn(client: PluginClient, call: HookCall, signal: AbortSignal): Promise<HookReply> {
    const url = pluginUrl(pluginOf(call), call.hook.name, call.timeoutSeconds);
    const timeoutMs = call.deadline - this.now();
    if (timeoutMs <= 0) return fail(timeoutFailure(url));
    const outcome = await client.admit(
      (capabilities) => encodeCall(call, capabilities, this.received, this.#cache, timeoutMs),
      timeoutMs,
      signal,
      { timeoutCounts: ownTimeoutBinds(call, timeoutMs) },
    );
    return replyOf(call, outcome, url, pluginOf(call));
  }

  /** Calls of one plugin that share the request: one admitBatch, one promise per call. */
  #batch(client: PluginClient, calls: readonly HookCall[], signal: AbortSignal): Promise<HookReply>[] {
    const first = calls[0]!;
    const at = this.now();
    const entries: BatchCall[] = calls.map((call) => {
      const timeoutMs = call.deadline - at;
      return {
        hook: call.hook.name,
        round: call.round,
        uid: call.request.uid,
        timeoutMs,
        reviewVersion: call.version,
        timeoutCounts: ownTimeoutBinds(call, timeoutMs),
      };
    });
    const outcomes = client.admitBatch(
      (capabilities) => encodeRequestFields(first, capabilities, this.received, this.#cache),
      entries,
      signal,
    );
    return calls.map((call, k) => {
      const plugin = pluginOf(call);
      const url = pluginUrl(plugin, call.hook.name, call.timeoutSeconds);
      return outcomes[k]!.then((outcome) => replyOf(call, outcome, url, plugin));
    });
  }
}

function isReply(value: PluginClient | HookReply): value is HookReply {
  return 'ok' in value;
}

/** The plugin of a call that has a client (its target is a plugin). */
function pluginOf(call: HookCall): string {
  const target = call.hook.target;
  return target.kind === 'plugin' ? target.plugin : '';
}

/** A call cut short by the request's budget says nothing about the plugin: its timeout is not held against it. */
function ownTimeoutBinds(call: HookCall, timeoutMs: number): boolean {
  return timeoutMs >= call.hook.timeoutSeconds * 1000 - 1;
}

function replyOf(call: HookCall, outcome: TransportOutcome, url: string, plugin: string): HookReply {
  return outcome.ok ? verifyAnswer(call, outcome.response, url) : fail(failureOf(outcome, url, plugin));
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
