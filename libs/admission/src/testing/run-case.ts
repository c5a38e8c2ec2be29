/**
 * Running a table case through a dispatcher, and comparing what came back with the case's
 * expectation. checkExpectation works on any observed outcome, so the gateway's end-to-end tests
 * can reuse it with what they decoded from a real HTTP answer.
 */
import type { Phase } from '../types/hook.js';
import type { ChainEnv } from '../chain/env.js';
import type { HookGroupInvoker, HookInvoker } from '../types/invoker.js';
import type { ChainOutcome } from '../chain/outcome.js';
import type { JsonObject, JsonValue } from '../types/json.js';
import type { Status } from '../types/review.js';
import type { PatchOperation } from '../types/patch-operation.js';
import { runMutating } from '../chain/mutating.js';
import { runValidating } from '../chain/validating.js';
import { applyPatch, decodePatch } from '../patch/json-patch.js';
import {
  buildTestConfiguration,
  buildTestEnv,
  buildTestHookSet,
  buildTestRequest,
  type TestConfigurationOptions,
} from './builders.js';
import { buildScriptedInvoker, type ScriptedInvoker } from './scripted-invoker.js';
import { createTestClock } from './test-clock.js';
import type { CaseExpectation, ChainCase } from './cases/types.js';

export interface CaseRun {
  readonly outcome: ChainOutcome;
  readonly invoker: ScriptedInvoker;
  readonly env: ChainEnv;
  /** The request's object with the outcome's patch applied (undefined when there was no object). */
  readonly finalObject: JsonValue | undefined;
}

/** Builds the case's hooks, request and env, and runs `phase`'s dispatcher with the scripted invoker. */
export async function runChainCase(
  phase: Phase,
  testCase: ChainCase,
  options: Omit<TestConfigurationOptions, 'apiVersion'> & {
    /** Also give the env an `invokeTogether` (over the same scripted invoker), as the gateway does. */
    readonly together?: boolean;
  } = {},
): Promise<CaseRun> {
  const { together, ...configurationOptions } = options;
  const configuration = buildTestConfiguration(phase, testCase.webhooks, {
    ...configurationOptions,
    apiVersion: testCase.configApiVersion ?? 'v1',
  });
  const set = buildTestHookSet([configuration]);
  const request = buildTestRequest(testCase.request);
  // Hanging behaviours move the clock to each call's deadline, as a real timeout would.
  const clock = createTestClock();
  const invoker = buildScriptedInvoker({ clock });
  const env = buildTestEnv({
    invoke: invoker.invoke,
    ...(together === true ? { invokeTogether: invokeEach(invoker.invoke) } : {}),
    clock,
    ...(testCase.timeout !== undefined ? { timeout: testCase.timeout } : {}),
  });
  const outcome = await (phase === 'mutating' ? runMutating(set, request, env) : runValidating(set, request, env));
  return { outcome, invoker, env, finalObject: applyOutcomePatch(request.object, outcome.patch) };
}

/** A group invoker that starts each call through `invoke`, in order (what a transport without batching does). */
export function invokeEach(invoke: HookInvoker): HookGroupInvoker {
  return (calls, signal) => calls.map((call) => invoke(call, signal));
}

/** What a test observed, from the chain directly or decoded from an HTTP answer. */
export interface ObservedOutcome {
  readonly allowed: boolean;
  readonly status?: Status;
  readonly auditAnnotations?: Readonly<Record<string, string>>;
  readonly warnings?: readonly string[];
  readonly finalObject?: JsonValue;
  readonly invocations?: Readonly<Record<string, number>>;
}

/** Every way `observed` differs from `expect`, as readable lines; empty when it matches. */
export function checkExpectation(expect: CaseExpectation, observed: ObservedOutcome): string[] {
  const problems: string[] = [];
  const differ = (what: string, want: unknown, got: unknown): void => {
    if (JSON.stringify(want) !== JSON.stringify(got))
      problems.push(`${what}: want ${JSON.stringify(want)}, got ${JSON.stringify(got)}`);
  };
  differ('allowed', expect.allowed, observed.allowed);
  const status = observed.status;
  if (expect.statusCode !== undefined) differ('status.code', expect.statusCode, status?.code);
  if (expect.reason !== undefined) differ('status.reason', expect.reason, status?.reason);
  if (expect.message !== undefined) differ('status.message', expect.message, status?.message);
  if (expect.messageContains !== undefined && !(status?.message ?? '').includes(expect.messageContains)) {
    problems.push(
      `status.message: want it to contain ${JSON.stringify(expect.messageContains)}, got ${JSON.stringify(status?.message)}`,
    );
  }
  if (expect.annotations !== undefined)
    differ('auditAnnotations', sortKeys(expect.annotations), sortKeys(observed.auditAnnotations ?? {}));
  if (expect.warnings !== undefined) differ('warnings', expect.warnings, observed.warnings ?? []);
  if (expect.labels !== undefined) differ('labels', sortKeys(expect.labels), sortKeys(labelsOf(observed.finalObject)));
  for (const [behaviour, count] of Object.entries(expect.invocations ?? {})) {
    differ(`invocations of ${behaviour}`, count, observed.invocations?.[behaviour] ?? 0);
  }
  return problems;
}

/** runChainCase's result as an ObservedOutcome. */
export function observe(run: CaseRun): ObservedOutcome {
  return {
    allowed: run.outcome.allowed,
    ...(run.outcome.status !== undefined ? { status: run.outcome.status } : {}),
    auditAnnotations: run.outcome.auditAnnotations,
    warnings: run.outcome.warnings,
    ...(run.finalObject !== undefined ? { finalObject: run.finalObject } : {}),
    invocations: run.invoker.invocations(),
  };
}

/** The object after the combined patch a dispatcher returned. Throws if the patch does not apply (a chain defect). */
export function applyOutcomePatch(
  object: JsonValue | undefined,
  patch: readonly PatchOperation[] | undefined,
): JsonValue | undefined {
  if (object === undefined || patch === undefined || patch.length === 0) return object;
  const decoded = decodePatch(JSON.stringify(patch));
  if (!decoded.ok) throw new Error(`the chain returned an undecodable patch: ${decoded.error}`);
  const applied = applyPatch(object, decoded.value);
  if (!applied.ok) throw new Error(`the chain returned a patch that does not apply: ${applied.error}`);
  return applied.value;
}

function labelsOf(object: JsonValue | undefined): JsonObject {
  if (object === null || object === undefined || typeof object !== 'object' || Array.isArray(object)) return {};
  const metadata = object['metadata'];
  if (metadata === null || metadata === undefined || typeof metadata !== 'object' || Array.isArray(metadata)) return {};
  const labels = metadata['labels'];
  return labels !== null && labels !== undefined && typeof labels === 'object' && !Array.isArray(labels) ? labels : {};
}

function sortKeys(record: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
