import { describe, expect, it } from 'vitest';
import type { AdmissionReview } from '../types/review.js';
import { respondAsWebhook, SCRIPTED_BEHAVIOURS } from './scripted-webhook.js';
import { behaviourOf, buildScriptedInvoker } from './scripted-invoker.js';
import { buildTestConfiguration, buildTestHookSet, buildTestRequest } from './builders.js';
import { createTestClock } from './test-clock.js';

const review: AdmissionReview = {
  apiVersion: 'admission.k8s.io/v1',
  kind: 'AdmissionReview',
  request: {
    uid: 'u-1',
    kind: { group: '', version: 'v1', kind: 'Pod' },
    resource: { group: '', version: 'v1', resource: 'pods' },
    operation: 'CREATE',
    userInfo: {},
    object: { metadata: { labels: { a: 'true' } } },
  },
};

describe('respondAsWebhook', () => {
  it.each(SCRIPTED_BEHAVIOURS.map((b) => [b]))('%s answers (or hangs) without throwing', (behaviour) => {
    const reply = respondAsWebhook(behaviour, review);
    if (reply.kind === 'http') expect(reply.response.status).toBeGreaterThan(0);
    else expect(behaviour).toBe('timeout');
  });

  it('echoes the uid and version of a well-behaved answer', () => {
    const reply = respondAsWebhook('allow', review);
    expect(reply.kind === 'http' && JSON.parse(reply.response.body)).toEqual({
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      response: { uid: 'u-1', allowed: true, auditAnnotations: { key1: 'value1' } },
    });
  });

  it('reads the object for the reinvocation behaviours', () => {
    const already = respondAsWebhook('addlabel', review);
    expect(already.kind === 'http' && JSON.parse(already.response.body).response.patch).toBeUndefined();
    const conditional = respondAsWebhook('conditionaladdlabel', review);
    expect(conditional.kind === 'http' && JSON.parse(conditional.response.body).response.patchType).toBe('JSONPatch');
  });

  it("answers unknown behaviours like Go's http.NotFound", () => {
    expect(respondAsWebhook('nope', review)).toEqual({
      kind: 'http',
      response: { status: 404, body: '404 page not found\n', contentType: 'text/plain; charset=utf-8' },
    });
  });
});

describe('behaviourOf', () => {
  it.each([
    { target: 'plugin', want: 'allow' },
    { target: 'url', want: 'allow' },
    { target: 'service', want: 'allow' },
  ] as const)('reads the behaviour from a $target target', ({ target, want }) => {
    const set = buildTestHookSet([
      buildTestConfiguration('validating', [{ name: 'h.example.com', behaviour: 'allow', target }]),
    ]);
    expect(behaviourOf(set.validating[0]!)).toBe(want);
  });

  it('refuses behaviours a service path cannot carry', () => {
    expect(() =>
      buildTestConfiguration('validating', [{ name: 'h.example.com', behaviour: 'addLabel', target: 'service' }]),
    ).toThrow(/service path/);
  });

  it('moves the clock to the deadline for a hanging behaviour and fails the call as timed out', async () => {
    const clock = createTestClock(0);
    const invoker = buildScriptedInvoker({ clock });
    const hook = buildTestHookSet([
      buildTestConfiguration('validating', [{ name: 'h.example.com', behaviour: 'timeout', target: 'url' }]),
    ]).validating[0]!;
    const reply = await invoker.invoke(
      {
        hook,
        request: buildTestRequest(),
        version: 'v1beta1',
        round: 0,
        deadline: 4200,
        timeoutSeconds: 5,
        patchFromOriginal: [],
      },
      new AbortController().signal,
    );
    expect(clock.now()).toBe(4200);
    expect(reply).toEqual({
      ok: false,
      failure: {
        kind: 'timeout',
        code: 503,
        message: 'failed to call webhook: Post "https://webhook.test/timeout?timeout=5s": context deadline exceeded',
      },
    });
    expect(invoker.invocations()).toEqual({ timeout: 1 });
  });
});
