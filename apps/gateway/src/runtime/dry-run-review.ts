/**
 * `hookgate review`: one admission request through the configured hooks, with the real transports
 * (bridge and gRPC plugins), outside the server: the mutating chain, then the validating chain on
 * the mutated object, as the apiserver would run them. Nothing is persisted anywhere.
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
  type JsonValue,
} from '@hookgate/admission';
import type { LoadedConfiguration } from '@hookgate/config';
import { createGatewayMetrics, createLogger, createMetricsRegistry } from '@hookgate/observability';
import { createBridgeInvoker } from '../bridge/bridge-invoker.js';
import { pluginInvoker } from '../grpc/index.js';
import { routeByTarget } from '../server/composite-invoker.js';
import { WorkerState } from './worker-state.js';

export interface DryRunResult {
  readonly mutating: ChainOutcome;
  /** Absent when the mutating chain rejected the request (validating hooks never run then). */
  readonly validating?: ChainOutcome;
  /** The object after the mutating chain's patch. */
  readonly finalObject: JsonValue | undefined;
}

export async function dryRunReview(
  configuration: LoadedConfiguration,
  request: AdmissionRequest,
  timeoutParam?: string,
): Promise<DryRunResult> {
  const log = createLogger({ component: 'review', level: 'silent' });
  const state = new WorkerState(log, createGatewayMetrics(createMetricsRegistry()));
  const now = () => performance.now();
  const bridge = createBridgeInvoker({ now, services: () => state.current().services });
  try {
    await state.apply(1, configuration);
    const current = state.current();
    const env = (): ChainEnv => {
      const budget = computeRequestBudget(now(), timeoutParam, current.budget);
      return {
        invoke: routeByTarget({ plugin: pluginInvoker(current.plugins, { now }), bridge: bridge.invoke }),
        namespaces: current.namespaces,
        now,
        newUid: randomUUID,
        deadline: budget.deadline,
        apiserverDeadline: budget.apiserverDeadline,
        signal: new AbortController().signal,
      };
    };
    const mutating = await runMutating(current.hooks, request, env());
    if (!mutating.allowed) return { mutating, finalObject: request.object };
    const finalObject =
      mutating.patch && request.object != null ? patchedObject(request.object, mutating) : request.object;
    const validating = await runValidating(
      current.hooks,
      { ...request, ...(finalObject !== undefined ? { object: finalObject } : {}) },
      env(),
    );
    return { mutating, validating, finalObject };
  } finally {
    await bridge.close();
    await state.close();
  }
}

function patchedObject(object: JsonValue, outcome: ChainOutcome): JsonValue {
  const decoded = decodePatch(JSON.stringify(outcome.patch ?? []));
  if (!decoded.ok) return object;
  const result = applyPatch(object, decoded.value);
  return result.ok ? result.value : object;
}
