import { describe, expect, it } from 'vitest';
import type { HookCall, HookInvoker, HookReply } from '../types/invoker.js';
import type { Hook } from '../types/hook.js';
import { buildHookSet } from '../match/index.js';
import { runMutating } from './mutating.js';
import {
  applyOutcomePatch,
  buildScriptedInvoker,
  buildTestConfiguration,
  buildTestEnv,
  buildTestHookSet,
  buildTestRequest,
  createTestClock,
  staticNamespaces,
  DEFAULT_TEST_NAMESPACES,
  type TestWebhook,
} from '../testing/index.js';

const hooksOf = (webhooks: TestWebhook[]) => buildTestHookSet([buildTestConfiguration('mutating', webhooks)]);
const allowAnswer: HookReply = { ok: true, answer: { allowed: true } };

/** An invoker that records calls and answers with `answer(call)`. */
function recording(answer: (call: HookCall) => HookReply | Promise<HookReply>): {
  invoke: HookInvoker;
  calls: HookCall[];
} {
  const calls: HookCall[] = [];
  return {
    calls,
    invoke: async (call) => {
      calls.push(call);
      return answer(call);
    },
  };
}

describe('runMutating: the calls it makes', () => {
  it('gives every call a fresh uid, the patched object and the patch so far', async () => {
    const invoker = buildScriptedInvoker();
    const env = buildTestEnv({ invoke: invoker.invoke });
    const request = buildTestRequest();
    const before = JSON.stringify(request);
    const set = hooksOf([
      { name: 'addlabel.example.com', behaviour: 'addLabel' },
      { name: 'noop.example.com', behaviour: 'noop', admissionReviewVersions: ['v1'] },
    ]);
    const outcome = await runMutating(set, request, env);
    expect(outcome.allowed).toBe(true);
    const [first, second] = invoker.calls;
    expect([first?.request.uid, second?.request.uid]).toEqual(['call-1', 'call-2']);
    expect([first?.version, second?.version]).toEqual(['v1beta1', 'v1']);
    expect(first?.patchFromOriginal).toEqual([]);
    expect(second?.patchFromOriginal).toEqual([{ op: 'add', path: '/metadata/labels/added', value: 'test' }]);
    expect(second?.request.object).toMatchObject({ metadata: { labels: { added: 'test' } } });
    expect(outcome.patch).toEqual([{ op: 'add', path: '/metadata/labels/added', value: 'test' }]);
    expect(JSON.stringify(request)).toBe(before);
  });

  it('shares the request budget between sequential hooks (§11: 10s request, hooks of 20s, 5s, 20s, 1s each → 10s, 5s, 8s)', async () => {
    const clock = createTestClock();
    const invoker = recording(() => {
      clock.advance(1000);
      return allowAnswer;
    });
    // ?timeout=10s: hooks are told what the apiserver would tell them; the 1 s safety margin is only enforced.
    const env = buildTestEnv({ invoke: invoker.invoke, clock, timeout: '10s' });
    const set = hooksOf([
      { name: 'a.example.com', behaviour: 'noop', timeoutSeconds: 20 },
      { name: 'b.example.com', behaviour: 'noop', timeoutSeconds: 5 },
      { name: 'c.example.com', behaviour: 'noop', timeoutSeconds: 20 },
    ]);
    await runMutating(set, buildTestRequest(), env);
    expect(invoker.calls.map((c) => c.timeoutSeconds)).toEqual([10, 5, 8]);
    expect(invoker.calls.map((c) => c.deadline - 1_000_000)).toEqual([9_000, 6_000, 9_000]);
  });

  it('fails a hook whose budget is already spent without calling it, then answers 504 after failing open', async () => {
    const clock = createTestClock();
    const invoker = recording(() => {
      clock.advance(10_000);
      return allowAnswer;
    });
    const env = buildTestEnv({ invoke: invoker.invoke, clock });
    const set = hooksOf([
      { name: 'slow.example.com', behaviour: 'noop' },
      { name: 'late.example.com', behaviour: 'noop', failurePolicy: 'Ignore' },
      { name: 'never.example.com', behaviour: 'noop' },
    ]);
    const outcome = await runMutating(set, buildTestRequest(), env);
    expect(invoker.calls.map((c) => c.hook.name)).toEqual(['slow.example.com']);
    expect(outcome.status?.code).toBe(504);
    expect(outcome.auditAnnotations['failed-open.mutation.webhook.admission.k8s.io/round_0_index_1']).toBe(
      'late.example.com',
    );
    expect(outcome.trace.find((e) => e.type === 'call' && e.hook === 'late.example.com')).toMatchObject({
      outcome: 'failed-open',
      failure: { kind: 'timeout', message: 'failed to call webhook: context deadline exceeded' },
    });
  });
});

describe('runMutating: invokers that misbehave never crash the chain', () => {
  const cases: Array<{ name: string; invoke: HookInvoker; message: string }> = [
    {
      name: 'throws',
      invoke: () => {
        throw new Error('boom');
      },
      message: 'failed to call webhook: plugin "noop": boom',
    },
    {
      name: 'rejects',
      invoke: () => Promise.reject(new TypeError('socket closed')),
      message: 'failed to call webhook: plugin "noop": socket closed',
    },
    {
      name: 'returns nothing',
      invoke: () => Promise.resolve(undefined as unknown as HookReply),
      message: 'failed to call webhook: plugin "noop": the invoker returned no reply',
    },
    {
      name: 'returns an unknown failure kind',
      invoke: () =>
        Promise.resolve({ ok: false, failure: { kind: 'panic', message: 'x', code: 1 } } as unknown as HookReply),
      message: 'failed to call webhook: plugin "noop": the invoker returned a malformed reply',
    },
    {
      name: 'returns an answer without allowed',
      invoke: () => Promise.resolve({ ok: true, answer: {} } as unknown as HookReply),
      message: 'failed to call webhook: plugin "noop": the invoker returned a malformed reply',
    },
  ];

  it.each(cases)('an invoker that $name is a calling failure (Fail → 500)', async ({ invoke, message }) => {
    const outcome = await runMutating(
      hooksOf([{ name: 'h.example.com', behaviour: 'noop' }]),
      buildTestRequest(),
      buildTestEnv({ invoke }),
    );
    expect(outcome.allowed).toBe(false);
    expect(outcome.status?.code).toBe(500);
    expect(outcome.status?.message).toBe(`Internal error occurred: failed calling webhook "h.example.com": ${message}`);
  });

  it.each(cases)('an invoker that $name fails open under Ignore', async ({ invoke }) => {
    const set = hooksOf([{ name: 'h.example.com', behaviour: 'noop', failurePolicy: 'Ignore' }]);
    const outcome = await runMutating(set, buildTestRequest(), buildTestEnv({ invoke }));
    expect(outcome.allowed).toBe(true);
    expect(outcome.auditAnnotations['failed-open.mutation.webhook.admission.k8s.io/round_0_index_0']).toBe(
      'h.example.com',
    );
  });

  it('survives answers with fields of the wrong type', async () => {
    const invoke: HookInvoker = async () =>
      ({
        ok: true,
        answer: { allowed: true, warnings: 'w', auditAnnotations: null, sideEffects: [null, { kind: 1 }], patch: 42 },
      }) as unknown as HookReply;
    const set = hooksOf([{ name: 'h.example.com', behaviour: 'noop' }]);
    const outcome = await runMutating(set, buildTestRequest(), buildTestEnv({ invoke }));
    expect(outcome.status?.message).toBe(
      'Internal error occurred: failed calling webhook "h.example.com": received undecodable patch in webhook response: the patch is not JSON text',
    );
    expect(outcome.sideEffects).toEqual([]);
    expect(outcome.warnings).toEqual([]);
  });
});

describe('runMutating: hooks the configuration API cannot express', () => {
  const withHook = (change: Partial<Hook>) => {
    const [hook] = hooksOf([{ name: 'h.example.com', behaviour: 'noop' }]).mutating;
    return buildHookSet([{ ...(hook as Hook), ...change }], []);
  };

  it('no known review version is a calling failure', async () => {
    const invoker = buildScriptedInvoker();
    const outcome = await runMutating(
      withHook({ reviewVersion: null }),
      buildTestRequest(),
      buildTestEnv({ invoke: invoker.invoke }),
    );
    expect(invoker.calls).toHaveLength(0);
    expect(outcome.status?.message).toBe(
      'Internal error occurred: failed calling webhook "h.example.com": could not create admission objects: webhook does not accept known AdmissionReview versions (v1, v1beta1)',
    );
    expect(outcome.auditAnnotations).toEqual({
      'mutation.webhook.admission.k8s.io/round_0_index_0':
        '{"configuration":"test-webhooks","webhook":"h.example.com","mutated":false}',
    });
  });

  it('sideEffects nil on a dry run fails open under Ignore', async () => {
    const invoker = buildScriptedInvoker();
    const set = withHook({ sideEffects: null, failurePolicy: 'Ignore' });
    const outcome = await runMutating(
      set,
      buildTestRequest({ isDryRun: true }),
      buildTestEnv({ invoke: invoker.invoke }),
    );
    expect(outcome.allowed).toBe(true);
    expect(invoker.calls).toHaveLength(0);
    expect(outcome.trace).toContainEqual(
      expect.objectContaining({
        type: 'call',
        outcome: 'failed-open',
        code: 400,
        failure: expect.objectContaining({ kind: 'sideeffects-nil' }),
      }),
    );
  });
});

describe('runMutating: trace, side effects, cancellation', () => {
  it('traces every skip, call and rejection without object contents', async () => {
    const invoker = buildScriptedInvoker();
    const set = hooksOf([
      { name: 'skipped.example.com', behaviour: 'noop', objectSelector: { matchLabels: { nope: 'x' } } },
      { name: 'addlabel.example.com', behaviour: 'addLabel' },
      { name: 'disallow.example.com', behaviour: 'disallow' },
    ]);
    const outcome = await runMutating(
      set,
      buildTestRequest({ additionalLabels: { secret: 'hunter2' } }),
      buildTestEnv({ invoke: invoker.invoke }),
    );
    expect(outcome.trace).toEqual([
      { type: 'skip', hook: 'skipped.example.com', round: 0, reason: 'objectSelector' },
      {
        type: 'call',
        hook: 'addlabel.example.com',
        round: 0,
        mutated: true,
        outcome: 'allowed',
        durationMs: 0,
        code: 200,
      },
      {
        type: 'call',
        hook: 'disallow.example.com',
        round: 0,
        mutated: false,
        outcome: 'denied',
        durationMs: 0,
        code: 403,
      },
    ]);
    expect(JSON.stringify(outcome.trace)).not.toContain('hunter2');
  });

  it('collects side effects in call order and flags the ones that break the declaration', async () => {
    const invoke: HookInvoker = async (call) => ({
      ok: true,
      answer: { allowed: true, sideEffects: [{ kind: 'quota', key: call.hook.name, payload: new Uint8Array([1]) }] },
    });
    const set = hooksOf([
      { name: 'none.example.com', behaviour: 'noop', sideEffects: 'None' },
      { name: 'noneondryrun.example.com', behaviour: 'noop', sideEffects: 'NoneOnDryRun' },
    ]);
    const live = await runMutating(set, buildTestRequest(), buildTestEnv({ invoke }));
    expect(live.sideEffects).toEqual([
      {
        kind: 'quota',
        key: 'none.example.com',
        payload: new Uint8Array([1]),
        hook: 'none.example.com',
        configuration: 'test-webhooks',
        plugin: 'noop',
        failurePolicy: 'Fail',
        violation: 'side-effects-none',
      },
      {
        kind: 'quota',
        key: 'noneondryrun.example.com',
        payload: new Uint8Array([1]),
        hook: 'noneondryrun.example.com',
        configuration: 'test-webhooks',
        plugin: 'noop',
        failurePolicy: 'Fail',
      },
    ]);
    const dry = await runMutating(set, buildTestRequest({ isDryRun: true }), buildTestEnv({ invoke }));
    expect(dry.sideEffects.map((s) => s.violation)).toEqual(['dry-run', 'dry-run']);
  });

  it('answers 504 without a fail-open annotation once the apiserver has gone away', async () => {
    const controller = new AbortController();
    controller.abort();
    const invoker = buildScriptedInvoker();
    const set = hooksOf([{ name: 'h.example.com', behaviour: 'noop', failurePolicy: 'Ignore' }]);
    const outcome = await runMutating(
      set,
      buildTestRequest(),
      buildTestEnv({ invoke: invoker.invoke, signal: controller.signal }),
    );
    expect(invoker.calls).toHaveLength(0);
    expect(outcome.status?.code).toBe(504);
    expect(Object.keys(outcome.auditAnnotations)).toEqual(['mutation.webhook.admission.k8s.io/round_0_index_0']);
  });

  it('waits for namespace lookups that are asynchronous', async () => {
    const invoker = buildScriptedInvoker();
    const lookup = staticNamespaces(DEFAULT_TEST_NAMESPACES);
    const env = { ...buildTestEnv({ invoke: invoker.invoke }), namespaces: async (name: string) => lookup(name) };
    const set = hooksOf([
      { name: 'addlabel.example.com', behaviour: 'addLabel', namespaceSelector: { matchLabels: { runlevel: '0' } } },
    ]);
    const request = buildTestRequest();
    const outcome = await runMutating(set, request, env);
    expect(applyOutcomePatch(request.object, outcome.patch)).toMatchObject({ metadata: { labels: { added: 'test' } } });
  });
});
