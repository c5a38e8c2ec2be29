/**
 * POST /mutate and /validate: decode → run the chain → encode, in the version received. Everything
 * about admission semantics is libs/admission's; this file only wires the request to it.
 */
import {
  encodeAnnotationsForApiserver,
  computeRequestBudget,
  decodeReview,
  encodeReview,
  runMutating,
  runValidating,
  type AdmissionRequest,
  type ChainEnv,
  type ChainOutcome,
  type FailurePolicyType,
  type Hook,
  type Phase,
  type Status,
} from '@hookgate/admission';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { pluginTransport } from '../grpc/index.js';
import { badRequest } from './bad-request.js';
import { routeByTarget, routeTogetherByTarget } from './composite-invoker.js';
import { logDecision } from './decision-log.js';
import type { GatewayContext } from './gateway-context.js';
import type { AdmissionBody } from './json-body.js';
import { recordOutcome, recordRequest } from './outcome-metrics.js';
import { hookSetsByPolicy } from './policy-hook-sets.js';
import { summarizeRequest } from './request-summary.js';
import { writeReview } from './write-review.js';

const RUN: Record<
  Phase,
  (set: Parameters<typeof runMutating>[0], r: AdmissionRequest, env: ChainEnv) => Promise<ChainOutcome>
> = {
  mutating: runMutating,
  validating: runValidating,
};

/**
 * `policy`: the route of the registration's webhook for that failure policy (`/mutate/fail`...),
 * which runs only the hooks configured with it; absent (`/mutate`, `/validate`): every hook.
 */
export function admissionHandler(phase: Phase, ctx: GatewayContext, policy?: FailurePolicyType) {
  return async (
    request: FastifyRequest<{ Body: AdmissionBody; Querystring: { timeout?: string } }>,
    reply: FastifyReply,
  ): Promise<void> => {
    const started = ctx.now();
    const review = decodeReview(request.body?.value);
    if (!review.ok) throw badRequest(`invalid AdmissionReview: ${review.error.message}`);
    const { version, request: admission } = review.value;
    const state = ctx.state.current(); // read once: the request keeps this configuration to the end
    const hooks = policy === undefined ? state.hooks : (state.hooksByPolicy ?? hookSetsByPolicy(state.hooks))[policy];
    const summary = summarizeRequest(phase, admission);
    if (hooks.candidates(phase, admission).length === 0) {
      recordRequest(ctx.metrics, summary, 'allowed', (ctx.now() - started) / 1000);
      writeReview(reply, encodeReview(version, admission.uid, { allowed: true }), ctx.draining());
      return;
    }
    const budget = computeRequestBudget(started, request.query.timeout, state.budget);
    if (budget.problem !== undefined)
      request.log.warn({ uid: admission.uid, problem: budget.problem }, 'ignoring an unusable ?timeout= parameter');
    const direct = pluginTransport(state.plugins, {
      now: ctx.now,
      received: { bytes: request.body.bytes, form: 'review', request: admission },
    });
    const plugin = state.guardPlugins === undefined ? direct.invoke : state.guardPlugins(direct.invoke);
    const plugins =
      state.guardPluginGroups === undefined ? direct.invokeTogether : state.guardPluginGroups(direct.invokeTogether);
    const env: ChainEnv = {
      invoke: routeByTarget({ plugin, bridge: ctx.bridge }),
      invokeTogether: routeTogetherByTarget({ plugin: plugins, bridge: ctx.bridge }),
      namespaces: state.namespaces,
      now: ctx.now,
      newUid: ctx.newUid,
      deadline: budget.deadline,
      apiserverDeadline: budget.apiserverDeadline,
      signal: abortOnHangUp(reply),
    };
    let outcome = await RUN[phase](hooks, admission, env);
    if (outcome.sideEffects.length > 0) {
      // The durable hand-over of side-effect jobs, before the answer: the apiserver may act on it at once.
      const waitMs = budget.apiserverDeadline - budget.marginMs / 2 - ctx.now();
      const recorded = ctx.sideEffects.record(
        outcome.sideEffects,
        { ...summary, allowed: outcome.allowed },
        { request: admission, outcome, waitMs },
      );
      const denial = recorded === undefined ? undefined : (await recorded).denial;
      if (denial !== undefined) outcome = withoutAdmission(outcome, denial);
    }
    const elapsed = ctx.now() - started;
    recordOutcome(ctx.metrics, summary, outcome, elapsed / 1000);
    // Under break glass every decision line says why a Fail hook failed open.
    logDecision(
      state.breakGlass ? request.log.child({ breakGlass: true }) : request.log,
      summary,
      outcome,
      elapsed,
      (name) => pluginOfHook(hooks[phase], name),
    );
    const answer = encodeReview(version, admission.uid, {
      ...outcome,
      auditAnnotations: encodeAnnotationsForApiserver(outcome.auditAnnotations, state.annotations ?? ctx.annotations),
    });
    writeReview(reply, answer, ctx.draining());
  };
}

/** The request denied after all (its side effects could not be recorded): no patch, the denial's Status. */
function withoutAdmission(outcome: ChainOutcome, status: Status): ChainOutcome {
  const { patch: _dropped, ...rest } = outcome;
  return { ...rest, allowed: false, status };
}

/** Aborted when the apiserver closes the connection before we answered: hooks stop at once. */
function abortOnHangUp(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return controller.signal;
}

/** Read only when a call failed: the hooks of one phase are few, a scan is enough. */
function pluginOfHook(hooks: readonly Hook[], name: string): string | undefined {
  const target = hooks.find((hook) => hook.name === name)?.target;
  return target?.kind === 'plugin' ? target.plugin : undefined;
}
