/**
 * `hookgate review` and `hookgate test`: admission requests through the configured hooks, with the
 * real transports (bridge and gRPC plugins), outside the server: the mutating chain, then the
 * validating chain on the mutated object, as the apiserver would run them. Nothing is persisted
 * anywhere. One DryRun serves many requests over the same plugin connections.
 */
import { randomUUID } from 'node:crypto';
import {
  applyPatch,
  computeRequestBudget,
  decodePatch,
  runMutating,
  runValidating,
  type AdmissionRequest,
  type ChainEnv,
  type ChainOutcome,
  type HookSet,
  type JsonValue,
} from '@hookgate/admission';
import type { LoadedConfiguration } from '@hookgate/config';
import { createGatewayMetrics, createLogger, createMetricsRegistry } from '@hookgate/observability';
import { createBridgeInvoker } from '../bridge/bridge-invoker.js';
import { pluginTransport } from '../grpc/index.js';
import { routeByTarget, routeTogetherByTarget } from '../server/composite-invoker.js';
import { WorkerState } from './worker-state.js';

export interface DryRunResult {
  readonly mutating: ChainOutcome;
  /** Absent when the mutating chain rejected the request (validating hooks never run then). */
  readonly validating?: ChainOutcome;
  /** The object after the mutating chain's patch. */
  readonly finalObject: JsonValue | undefined;
}

export interface DryRun {
  /** Every configured hook of both phases, compiled as the gateway serves them. */
  readonly hooks: HookSet;
  review(request: AdmissionRequest, timeoutParam?: string): Promise<DryRunResult>;
  close(): Promise<void>;
}

/** Compiles the configuration and connects to its plugins; close() when done. */
export async function openDryRun(configuration: LoadedConfiguration): Promise<DryRun> {
  const log = createLogger({ component: 'review', level: 'silent' });
  const state = new WorkerState(log, createGatewayMetrics(createMetricsRegistry()));
  const now = () => performance.now();
  const bridge = createBridgeInvoker({ now, services: () => state.current().services });
  const close = async () => {
    await bridge.close();
    await state.close();
  };
  try {
    await state.apply(1, configuration);
  } catch (error) {
    await close();
    throw error;
  }
  const current = state.current();
  const env = (timeoutParam: string | undefined): ChainEnv => {
    const budget = computeRequestBudget(now(), timeoutParam, current.budget);
    const plugins = pluginTransport(current.plugins, { now });
    return {
      invoke: routeByTarget({ plugin: plugins.invoke, bridge: bridge.invoke }),
      invokeTogether: routeTogetherByTarget({ plugin: plugins.invokeTogether, bridge: bridge.invoke }),
      namespaces: current.namespaces,
      now,
      newUid: randomUUID,
      deadline: budget.deadline,
      apiserverDeadline: budget.apiserverDeadline,
      signal: new AbortController().signal,
    };
  };
  return {
    hooks: current.hooks,
    async review(request, timeoutParam) {
      const mutating = await runMutating(current.hooks, request, env(timeoutParam));
      if (!mutating.allowed) return { mutating, finalObject: request.object };
      const finalObject =
        mutating.patch && request.object != null ? patchedObject(request.object, mutating) : request.object;
      const validating = await runValidating(
        current.hooks,
        { ...request, ...(finalObject !== undefined ? { object: finalObject } : {}) },
        env(timeoutParam),
      );
      return { mutating, validating, finalObject };
    },
    close,
  };
}

/** One request: opens a DryRun, reviews, closes. */
export async function dryRunReview(
  configuration: LoadedConfiguration,
  request: AdmissionRequest,
  timeoutParam?: string,
): Promise<DryRunResult> {
  const dryRun = await openDryRun(configuration);
  try {
    return await dryRun.review(request, timeoutParam);
  } finally {
    await dryRun.close();
  }
}

function patchedObject(object: JsonValue, outcome: ChainOutcome): JsonValue {
  const decoded = decodePatch(JSON.stringify(outcome.patch ?? []));
  if (!decoded.ok) return object;
  const result = applyPatch(object, decoded.value);
  return result.ok ? result.value : object;
}
