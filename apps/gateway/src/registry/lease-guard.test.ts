import { describe, expect, it } from 'vitest';
import { runValidating } from '@hookgate/admission';
import type { ChainEnv, HookCall, HookGroupInvoker, HookInvoker, HookReply } from '@hookgate/admission';
import { buildTestCall, podCreateRequest } from '../testing/hook-fixtures.js';
import { createLeaseGroupGuard, leaseGuard } from './lease-guard.js';
import { mergeHookSources } from './merge-hook-sources.js';
import { RegistrationStore } from './registration-store.js';
import { configuration, manualClock, payload, staticSources, webhook } from './test/fixtures.js';

const STATIC = staticSources(
  [{ name: 'quota', target: '127.0.0.1:7001' }],
  [configuration('quota', [webhook('quota.example.com', 'quota')])],
);
const ALLOW: HookReply = { ok: true, answer: { allowed: true } };

function setup() {
  const clock = manualClock();
  const store = new RegistrationStore({ now: clock.now, static: STATIC });
  const registered = store.register({
    plugin: 'labels',
    target: 'unix:///run/hookgate/labels.sock',
    configurations: [
      payload(
        configuration('labels', [
          webhook('required.labels.example.com', 'labels', 'Fail'),
          webhook('advice.labels.example.com', 'labels', 'Ignore'),
        ]),
      ),
    ],
    leaseSeconds: 30,
  });
  if (!registered.ok) throw new Error(registered.error.message);
  const calls: string[] = [];
  const inner: HookInvoker = async (call: HookCall) => {
    calls.push(call.hook.name);
    return ALLOW;
  };
  const invoke = leaseGuard(() => store.snapshot(), inner, { now: clock.now, socket: '/run/hookgate/registry.sock' });
  const hooks = () => {
    const merged = mergeHookSources(STATIC, store.snapshot());
    if (!merged.ok) throw new Error(merged.error.join('\n'));
    return merged.value.hooks;
  };
  return { clock, store, calls, invoke, hooks };
}

function env(invoke: HookInvoker, now: () => number): ChainEnv {
  return {
    invoke,
    namespaces: () => ({ found: true, labels: { 'kubernetes.io/metadata.name': 'default' } }),
    now,
    newUid: () => 'call-uid',
    deadline: now() + 10_000,
    signal: new AbortController().signal,
  };
}

describe('leaseGuard', () => {
  const cases = [
    { name: 'static plugin: always called', hook: 'quota.example.com', advanceMs: 3_600_000, called: true },
    {
      name: 'registered plugin within its lease: called',
      hook: 'required.labels.example.com',
      advanceMs: 29_999,
      called: true,
    },
    {
      name: 'registered plugin past its lease, before any sweep: not called',
      hook: 'required.labels.example.com',
      advanceMs: 30_000,
      called: false,
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const { clock, calls, invoke, hooks } = setup();
      const hook = hooks().validating.find((h) => h.name === c.hook)!;
      clock.advance(c.advanceMs);
      const reply = await invoke(buildTestCall(hook, clock.now()), new AbortController().signal);
      expect(calls).toEqual(c.called ? [c.hook] : []);
      expect(reply.ok).toBe(c.called);
    });
  }

  it('fails an expired plugin’s call at once as a transport failure that says what happened and what to do', async () => {
    const { clock, store, invoke, hooks } = setup();
    const hook = hooks().validating.find((h) => h.name === 'required.labels.example.com')!;
    clock.advance(45_000);
    store.sweep();
    const reply = await invoke(buildTestCall(hook, clock.now()), new AbortController().signal);
    expect(reply).toEqual({
      ok: false,
      failure: {
        kind: 'transport',
        code: 503,
        message:
          'failed to call webhook: Post "plugin://labels/required.labels.example.com?timeout=10s": plugin "labels" is gone: its registration lease expired at ' +
          '2026-01-01T00:00:30.000Z (15s ago) and it has not registered again; the hook fails closed until the plugin registers again (restart it) or is deregistered on purpose ' +
          '(Registry.Deregister on the gateway registry at /run/hookgate/registry.sock)',
      },
    });
  });

  it('through the validating chain: the Fail hook rejects the request, the Ignore hook is gone, re-registering heals it', async () => {
    const { clock, store, calls, invoke, hooks } = setup();
    clock.advance(31_000);
    store.sweep();
    const expired = await runValidating(hooks(), podCreateRequest(), env(invoke, clock.now));
    expect(expired.allowed).toBe(false);
    expect(expired.status?.message).toMatch(
      /^Internal error occurred: failed calling webhook "required.labels.example.com": failed to call webhook: .*plugin "labels" is gone: its registration lease expired/,
    );
    // The static hook is still called; neither of the expired plugin's hooks is.
    expect(calls).toEqual(['quota.example.com']);
    calls.length = 0;

    store.register({
      plugin: 'labels',
      target: 'unix:///run/hookgate/labels.sock',
      configurations: [
        payload(
          configuration('labels', [
            webhook('required.labels.example.com', 'labels', 'Fail'),
            webhook('advice.labels.example.com', 'labels', 'Ignore'),
          ]),
        ),
      ],
      leaseSeconds: 30,
    });
    const healed = await runValidating(hooks(), podCreateRequest(), env(invoke, clock.now));
    expect(healed.allowed).toBe(true);
    expect(calls.sort()).toEqual(['advice.labels.example.com', 'quota.example.com', 'required.labels.example.com']);
  });

  it('for calls started together: the expired plugin’s call fails at once, the others go on as one group', async () => {
    const { clock, store, hooks } = setup();
    clock.advance(31_000);
    store.sweep();
    const groups: string[][] = [];
    const inner: HookGroupInvoker = (calls) => {
      groups.push(calls.map((c) => c.hook.name));
      return calls.map(() => Promise.resolve(ALLOW));
    };
    const guard = createLeaseGroupGuard(() => store.snapshot(), { now: clock.now })(inner);
    const unusedInvoke: HookInvoker = () => Promise.reject(new Error('single invoke used for a group'));
    const outcome = await runValidating(hooks(), podCreateRequest(), {
      ...env(unusedInvoke, clock.now),
      invokeTogether: guard,
    });
    expect(groups).toEqual([['quota.example.com']]);
    expect(outcome.allowed).toBe(false);
    expect(outcome.status?.message).toMatch(/"required.labels.example.com".*plugin "labels" is gone/);
    expect(outcome.trace.filter((e) => e.type === 'call').map((e) => [e.hook, e.type === 'call' && e.outcome])).toEqual(
      [
        ['required.labels.example.com', 'failed-closed'],
        ['quota.example.com', 'allowed'],
      ],
    );
  });
});
