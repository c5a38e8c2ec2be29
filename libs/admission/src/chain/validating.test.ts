import { describe, expect, it } from 'vitest';
import type { HookCall, HookInvoker, HookReply } from '../types/invoker.js';
import { runValidating } from './validating.js';
import {
  buildScriptedInvoker,
  buildTestConfiguration,
  buildTestEnv,
  buildTestHookSet,
  buildTestRequest,
  createTestClock,
  type TestWebhook,
} from '../testing/index.js';

const hooksOf = (webhooks: TestWebhook[]) => buildTestHookSet([buildTestConfiguration('validating', webhooks)]);

/** An invoker whose answers the test releases one by one, in any order. */
function gated(answers: Record<string, HookReply>) {
  const pending = new Map<string, (reply: HookReply) => void>();
  const started: string[] = [];
  const invoke: HookInvoker = (call: HookCall) =>
    new Promise<HookReply>((resolve) => {
      started.push(call.hook.name);
      pending.set(call.hook.name, resolve);
    });
  const release = (name: string) => {
    const resolve = pending.get(name);
    if (resolve === undefined) throw new Error(`${name} was not called`);
    resolve(answers[name] ?? { ok: true, answer: { allowed: true } });
  };
  return { invoke, started, release };
}

const flush = () =>
  new Promise<void>((resolve) => queueMicrotask(resolve)).then(() => new Promise<void>((r) => queueMicrotask(r)));

const deny = (message: string, warnings: string[] = []): HookReply => ({
  ok: true,
  answer: { allowed: false, status: { code: 403, message }, warnings },
});

describe('runValidating', () => {
  const webhooks: TestWebhook[] = [
    { name: 'a.example.com', behaviour: 'noop' },
    { name: 'b.example.com', behaviour: 'noop' },
    { name: 'c.example.com', behaviour: 'noop' },
  ];

  it('starts every matching hook before any answers, and the first error to arrive wins', async () => {
    const gate = gated({ 'a.example.com': deny('from a', ['wa']), 'c.example.com': deny('from c', ['wc']) });
    const result = runValidating(hooksOf(webhooks), buildTestRequest(), buildTestEnv({ invoke: gate.invoke }));
    await flush();
    expect(gate.started).toEqual(['a.example.com', 'b.example.com', 'c.example.com']);
    gate.release('c.example.com');
    gate.release('b.example.com');
    gate.release('a.example.com');
    const outcome = await result;
    expect(outcome.status?.message).toBe('admission webhook "c.example.com" denied the request: from c');
    // Warnings come in completion order.
    expect(outcome.warnings).toEqual(['wc', 'wa']);
  });

  it('waits for every hook, even after a denial', async () => {
    const gate = gated({
      'a.example.com': deny('from a'),
      'b.example.com': { ok: true, answer: { allowed: true, auditAnnotations: { late: 'yes' } } },
    });
    let settled = false;
    const result = runValidating(
      hooksOf(webhooks.slice(0, 2)),
      buildTestRequest(),
      buildTestEnv({ invoke: gate.invoke }),
    ).then((o) => {
      settled = true;
      return o;
    });
    await flush();
    gate.release('a.example.com');
    await flush();
    expect(settled).toBe(false);
    gate.release('b.example.com');
    const outcome = await result;
    expect(outcome.allowed).toBe(false);
    expect(outcome.auditAnnotations).toEqual({ 'b.example.com/late': 'yes' });
  });

  it('rejects on a matching error before calling anything', async () => {
    const invoker = buildScriptedInvoker();
    const set = hooksOf([
      { name: 'allow.example.com', behaviour: 'allow' },
      { name: 'selective.example.com', behaviour: 'allow', namespaceSelector: { matchLabels: { team: 'a' } } },
    ]);
    const outcome = await runValidating(
      set,
      buildTestRequest({ namespace: 'gone' }),
      buildTestEnv({ invoke: invoker.invoke }),
    );
    expect(invoker.calls).toHaveLength(0);
    expect(outcome.status).toMatchObject({ code: 404, message: 'namespaces "gone" not found' });
    expect(outcome.trace).toEqual([
      { type: 'reject', hook: 'selective.example.com', round: 0, reason: 'namespaceSelector', code: 404 },
    ]);
  });

  it('answers 504 without calling when the budget is spent before the start', async () => {
    const clock = createTestClock();
    const invoker = buildScriptedInvoker();
    const env = { ...buildTestEnv({ invoke: invoker.invoke, clock }), deadline: clock.now() };
    const outcome = await runValidating(hooksOf(webhooks), buildTestRequest(), env);
    expect(invoker.calls).toHaveLength(0);
    expect(outcome.status).toMatchObject({ code: 504, reason: 'Timeout' });
  });

  it('allows when no hook matches, without any call', async () => {
    const invoker = buildScriptedInvoker();
    const set = hooksOf([
      { name: 'a.example.com', behaviour: 'disallow', objectSelector: { matchLabels: { x: 'y' } } },
    ]);
    const outcome = await runValidating(set, buildTestRequest(), buildTestEnv({ invoke: invoker.invoke }));
    expect(outcome).toMatchObject({ allowed: true, warnings: [], auditAnnotations: {}, sideEffects: [] });
    expect(outcome.patch).toBeUndefined();
    expect(invoker.calls).toHaveLength(0);
  });

  it('sends the object as received, with a fresh uid per call', async () => {
    const invoker = buildScriptedInvoker();
    const request = buildTestRequest();
    await runValidating(hooksOf(webhooks), request, buildTestEnv({ invoke: invoker.invoke }));
    expect(invoker.calls.map((c) => c.request.uid).sort()).toEqual(['call-1', 'call-2', 'call-3']);
    expect(invoker.calls.every((c) => c.request.object === request.object && c.patchFromOriginal.length === 0)).toBe(
      true,
    );
  });

  it('starts the calls together through invokeTogether; each settles, is timed and decided on its own', async () => {
    const clock = createTestClock();
    const gate = gated({
      'a.example.com': deny('from a'),
      'b.example.com': { ok: true, answer: { allowed: true, warnings: ['wb'] } },
    });
    const groups: string[][] = [];
    const env = buildTestEnv({
      invoke: () => Promise.reject(new Error('invoke must not be used for a group')),
      invokeTogether: (calls, signal) => {
        groups.push(calls.map((c) => `${c.hook.name} ${c.request.uid}`));
        return calls.map((call) => gate.invoke(call, signal));
      },
      clock,
    });
    const set = hooksOf([...webhooks, { name: 'd.example.com', behaviour: 'noop', failurePolicy: 'Ignore' }]);
    const result = runValidating(set, buildTestRequest(), env);
    await flush();
    expect(groups).toEqual([
      ['a.example.com call-1', 'b.example.com call-2', 'c.example.com call-3', 'd.example.com call-4'],
    ]);
    clock.advance(5);
    gate.release('b.example.com');
    await flush();
    clock.advance(7);
    gate.release('a.example.com');
    gate.release('c.example.com');
    await flush();
    const outcome = await Promise.race([result, flush().then(() => 'still waiting for d' as const)]);
    expect(outcome).toBe('still waiting for d');
    gate.release('d.example.com');
    const done = await result;
    expect(done.status?.message).toBe('admission webhook "a.example.com" denied the request: from a');
    expect(done.warnings).toEqual(['wb']);
    const calls = done.trace.filter((e) => e.type === 'call');
    expect(
      calls.map((e) => [e.hook, e.type === 'call' ? e.outcome : '', e.type === 'call' ? e.durationMs : -1]),
    ).toEqual([
      ['b.example.com', 'allowed', 5],
      ['a.example.com', 'denied', 12],
      ['c.example.com', 'allowed', 12],
      ['d.example.com', 'allowed', 12],
    ]);
  });

  it('fails each call of a group its invoker left without a reply, by its own failure policy', async () => {
    const set = hooksOf([
      { name: 'a.example.com', behaviour: 'noop', failurePolicy: 'Ignore' },
      { name: 'b.example.com', behaviour: 'noop', failurePolicy: 'Fail' },
    ]);
    const env = buildTestEnv({
      invoke: () => Promise.reject(new Error('unused')),
      // A broken transport: one reply for two calls.
      invokeTogether: () => [Promise.resolve({ ok: true, answer: { allowed: true } })],
    });
    const outcome = await runValidating(set, buildTestRequest(), env);
    expect(outcome.allowed).toBe(false);
    expect(outcome.status?.message).toContain('the invoker returned no reply for this call');
    const throwing = buildTestEnv({
      invoke: () => Promise.reject(new Error('unused')),
      invokeTogether: () => {
        throw new Error('transport exploded');
      },
    });
    const thrown = await runValidating(set, buildTestRequest(), throwing);
    expect(thrown.status?.message).toContain('transport exploded');
    expect(thrown.trace.map((e) => [e.hook, e.type === 'call' ? e.outcome : e.type])).toEqual([
      ['a.example.com', 'failed-open'],
      ['b.example.com', 'failed-closed'],
    ]);
  });
});
