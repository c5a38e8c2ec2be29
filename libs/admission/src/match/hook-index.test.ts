// The index must return exactly what a brute-force scan of every rule returns, in list order.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileHooks } from '../config/hook.js';
import type { DefaultedConfiguration, DefaultedWebhook, RuleWithOperations } from '../types/webhook-configuration.js';
import type { Hook } from '../types/hook.js';
import type { Operation } from '../types/review.js';
import { HookIndex } from './hook-index.js';
import { findMatchingRule } from './rules.js';
import type { RuleAttributes } from './rules.js';
import { defaultedWebhook } from '../testing/defaulted-webhook.js';

const webhook = (name: string, rules: Required<RuleWithOperations>[]): DefaultedWebhook =>
  defaultedWebhook(name, { rules, matchPolicy: 'Exact' });

const config = (name: string, webhooks: DefaultedWebhook[]): DefaultedConfiguration => ({
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingWebhookConfiguration',
  name,
  webhooks,
});

const bruteForce = (hooks: readonly Hook[], request: RuleAttributes): Hook[] =>
  hooks.filter((h) => findMatchingRule(h.rules, request) >= 0);

const OPERATIONS: Operation[] = ['CREATE', 'UPDATE', 'DELETE', 'CONNECT'];

const ruleArb: fc.Arbitrary<Required<RuleWithOperations>> = fc.record({
  operations: fc.subarray(['*', ...OPERATIONS] as RuleWithOperations['operations'] & string[]),
  apiGroups: fc.subarray(['*', '', 'apps', 'batch']),
  apiVersions: fc.subarray(['*', 'v1', 'v1beta1']),
  resources: fc.subarray([
    '*',
    '*/*',
    'pods',
    'pods/*',
    'pods/status',
    '*/status',
    'deployments',
    'deployments/scale',
    'nodes',
    'namespaces',
  ]),
  scope: fc.constantFrom('*', 'Namespaced', 'Cluster'),
}) as fc.Arbitrary<Required<RuleWithOperations>>;

const requestArb: fc.Arbitrary<RuleAttributes> = fc.record({
  operation: fc.constantFrom(...OPERATIONS),
  resource: fc.record({
    group: fc.constantFrom('', 'apps', 'batch', 'other'),
    version: fc.constantFrom('v1', 'v1beta1', 'v2'),
    resource: fc.constantFrom('pods', 'deployments', 'nodes', 'namespaces', 'jobs'),
  }),
  subResource: fc.constantFrom('', 'status', 'scale', 'exec'),
  namespace: fc.constantFrom('', 'ns'),
});

describe('HookIndex', () => {
  it('returns the same hooks, in the same order, as a brute-force scan (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(ruleArb, { maxLength: 3 }), { maxLength: 30 }),
        fc.array(requestArb, { minLength: 1, maxLength: 20 }),
        (ruleSets, requests) => {
          const hooks = compileHooks([
            config(
              'c',
              ruleSets.map((rules, i) => webhook(`h${i}.example.com`, rules)),
            ),
          ]).validating;
          const index = new HookIndex(hooks);
          for (const request of [...requests, ...requests]) {
            const got = index.candidates(request);
            const want = bruteForce(hooks, request);
            // Same Hook objects (identity), same order.
            expect(got.length === want.length && got.every((h, i) => h === want[i])).toBe(true);
          }
        },
      ),
      { numRuns: 100 },
    );
  });

  const pods = {
    operations: ['CREATE'],
    apiGroups: [''],
    apiVersions: ['v1'],
    resources: ['pods'],
    scope: '*',
  } as Required<RuleWithOperations>;
  const podCreate: RuleAttributes = {
    operation: 'CREATE',
    resource: { group: '', version: 'v1', resource: 'pods' },
    subResource: '',
    namespace: 'ns',
  };

  it('answers a request nothing matches with one shared empty array', () => {
    const index = new HookIndex(compileHooks([config('c', [webhook('a.example.com', [pods])])]).validating);
    const miss: RuleAttributes = { ...podCreate, operation: 'DELETE' };
    const other: RuleAttributes = { ...podCreate, resource: { group: 'apps', version: 'v1', resource: 'deployments' } };
    expect(index.candidates(miss)).toHaveLength(0);
    expect(index.candidates(miss)).toBe(index.candidates(other));
    expect(new HookIndex([]).candidates(podCreate)).toBe(index.candidates(miss));
  });

  it('with 1,000 hooks returns only the matching ones, in list order, cached per request shape', () => {
    const webhooks = Array.from({ length: 1000 }, (_, i) =>
      webhook(`h${i}.example.com`, [{ ...pods, apiGroups: [i % 100 === 0 ? '' : `group${i}.example.com`] }]),
    );
    const hooks = compileHooks([config('c', webhooks)]).validating;
    const index = new HookIndex(hooks);
    const found = index.candidates(podCreate);
    expect(found.map((h) => h.index)).toEqual([0, 100, 200, 300, 400, 500, 600, 700, 800, 900]);
    expect(index.candidates({ ...podCreate })).toBe(found);
    expect(Object.isFrozen(found)).toBe(true);
  });

  it.each([
    ['subresource differs', { ...podCreate, subResource: 'status' }],
    ['version differs', { ...podCreate, resource: { group: '', version: 'v2', resource: 'pods' } }],
    ['scope differs', { ...podCreate, namespace: '' }],
  ] as [string, RuleAttributes][])('keeps request shapes apart in the cache: %s', (_name, request) => {
    const scoped = { ...pods, operations: ['*'], scope: 'Namespaced' } as Required<RuleWithOperations>;
    const index = new HookIndex(compileHooks([config('c', [webhook('a.example.com', [scoped])])]).validating);
    expect(index.candidates(podCreate)).toHaveLength(1);
    expect(index.candidates(request)).toHaveLength(0);
  });
});
