// Ported from kubernetes/apiserver predicates/namespace/matcher_test.go (TestGetNamespaceLabels,
// TestNotExemptClusterScopedResource) plus §6 of k8s-semantics.md.
import { describe, expect, it } from 'vitest';
import type { NamespaceLookup, NamespaceLookupResult } from '../types/namespace-lookup.js';
import type { LabelSelector } from '../types/webhook-configuration.js';
import type { JsonValue } from '../types/json.js';
import type { Operation } from '../types/review.js';
import { compileSelector } from './label-selector.js';
import { matchNamespaceSelector } from './namespace-selector.js';
import type { NamespaceAttributes } from './namespace-selector.js';
import type { SelectorResult } from './selector-result.js';

const namespaces: Record<string, Record<string, string>> = {
  '1': { runlevel: '1' },
  default: { 'kubernetes.io/metadata.name': 'default' },
};
const namespace2 = { metadata: { name: '2', labels: { runlevel: '2' } } };

/** A real in-memory namespace cache; `calls` records lookups so "no lookup" can be asserted. */
function cache(): NamespaceLookup & { calls: string[] } {
  const calls: string[] = [];
  const lookup = (name: string): NamespaceLookupResult => {
    calls.push(name);
    const labels = namespaces[name];
    return labels ? { found: true, labels } : { found: false };
  };
  return Object.assign(lookup, { calls });
}

const attrs = (
  namespace: string,
  resource: string,
  subResource: string,
  operation: Operation,
  object: JsonValue | undefined = null,
): NamespaceAttributes => ({
  namespace,
  resource: { group: '', version: 'v1', resource },
  subResource,
  operation,
  object,
});

const runlevel = (value: string): LabelSelector => ({ matchLabels: { runlevel: value } });

/** The cache-backed lookups below are synchronous, so the result must be too. */
function sync(result: SelectorResult | Promise<SelectorResult>): SelectorResult {
  if (result instanceof Promise) throw new Error('expected a synchronous result');
  return result;
}

describe('matchNamespaceSelector: label source (TestGetNamespaceLabels)', () => {
  const cases: [string, NamespaceAttributes, string, boolean][] = [
    // name, request, runlevel the selector asks for, want
    [
      'creating a namespace: labels from the object itself',
      attrs('', 'namespaces', '', 'CREATE', namespace2),
      '2',
      true,
    ],
    ['updating a namespace: labels from the new object', attrs('2', 'namespaces', '', 'UPDATE', namespace2), '2', true],
    ['deleting a namespace: labels from the cache', attrs('1', 'namespaces', '', 'DELETE', namespace2), '1', true],
    ['deleting a namespace: not the object labels', attrs('1', 'namespaces', '', 'DELETE', namespace2), '2', false],
    ['namespace/finalizers: labels from the cache', attrs('1', 'namespaces', 'finalizers', 'CREATE'), '1', true],
    ['pod: labels of its namespace', attrs('1', 'pods', '', 'CREATE'), '1', true],
    ['pod: selector does not match', attrs('1', 'pods', '', 'CREATE'), '2', false],
  ];
  it.each(cases)('%s', (_name, request, level, want) => {
    const result = matchNamespaceSelector(compileSelector(runlevel(level)), request, cache());
    expect(result).toEqual(want ? { matches: true } : { matches: false });
  });
});

describe('matchNamespaceSelector: §6 rules', () => {
  it('cluster-scoped resources other than namespaces are never exempted (TestNotExemptClusterScopedResource)', () => {
    const lookup = cache();
    expect(matchNamespaceSelector(compileSelector(runlevel('9')), attrs('', 'nodes', '', 'CREATE'), lookup)).toEqual({
      matches: true,
    });
    expect(lookup.calls).toEqual([]);
  });

  it('cluster-scoped resources ignore even an invalid selector', () => {
    const bad = compileSelector({ matchExpressions: [{ key: 'a', operator: 'In', values: [] }] });
    expect(matchNamespaceSelector(bad, attrs('', 'nodes', '', 'CREATE'), cache())).toEqual({ matches: true });
  });

  it('an empty selector matches without any lookup, even for unknown namespaces', () => {
    const lookup = cache();
    expect(matchNamespaceSelector(compileSelector({}), attrs('missing', 'pods', '', 'CREATE'), lookup)).toEqual({
      matches: true,
    });
    expect(lookup.calls).toEqual([]);
  });

  it('a null selector matches nothing', () => {
    expect(matchNamespaceSelector(compileSelector(null), attrs('1', 'pods', '', 'CREATE'), cache())).toEqual({
      matches: false,
    });
  });

  it('an unknown namespace is a 404 NotFound', () => {
    const result = matchNamespaceSelector(
      compileSelector(runlevel('1')),
      attrs('missing', 'pods', '', 'CREATE'),
      cache(),
    );
    expect(result).toEqual({
      matches: false,
      error: {
        status: 'Failure',
        message: 'namespaces "missing" not found',
        reason: 'NotFound',
        details: { name: 'missing', kind: 'namespaces' },
        code: 404,
      },
    });
  });

  it('another lookup error is a 500', () => {
    const failing: NamespaceLookup = () => ({ error: 'etcdserver: request timed out' });
    const result = sync(
      matchNamespaceSelector(compileSelector(runlevel('1')), attrs('1', 'pods', '', 'CREATE'), failing),
    );
    expect(result.matches).toBe(false);
    expect(!result.matches && result.error?.code).toBe(500);
    expect(!result.matches && result.error?.message).toBe('Internal error occurred: etcdserver: request timed out');
  });

  it('a throwing lookup is a 500, not an exception', () => {
    const throwing: NamespaceLookup = () => {
      throw new Error('cache not ready');
    };
    const result = sync(
      matchNamespaceSelector(compileSelector(runlevel('1')), attrs('1', 'pods', '', 'CREATE'), throwing),
    );
    expect(!result.matches && result.error?.message).toBe('Internal error occurred: cache not ready');
  });

  it('an invalid selector is a 500 carrying the parse error', () => {
    const bad = compileSelector({ matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x'] }] });
    const result = sync(matchNamespaceSelector(bad, attrs('1', 'pods', '', 'CREATE'), cache()));
    expect(!result.matches && result.error?.code).toBe(500);
    expect(!result.matches && result.error?.message).toBe(
      'Internal error occurred: values: Invalid value: ["x"]: values set must be empty for exists and does not exist',
    );
  });

  it('a Namespace CREATE without an object is a 500', () => {
    const result = sync(
      matchNamespaceSelector(compileSelector(runlevel('1')), attrs('', 'namespaces', '', 'CREATE', null), cache()),
    );
    expect(!result.matches && result.error?.message).toBe(
      'Internal error occurred: object does not implement the Object interfaces',
    );
  });

  it('a Namespace object without metadata has no labels (NotIn matches)', () => {
    const selector = compileSelector({ matchExpressions: [{ key: 'runlevel', operator: 'NotIn', values: ['1'] }] });
    expect(matchNamespaceSelector(selector, attrs('', 'namespaces', '', 'CREATE', {}), cache())).toEqual({
      matches: true,
    });
  });

  it('the Namespace check is on the resource name in any group (§6 note)', () => {
    const lookup = cache();
    const request: NamespaceAttributes = {
      ...attrs('', 'namespaces', '', 'CREATE', namespace2),
      resource: { group: 'example.com', version: 'v1', resource: 'namespaces' },
    };
    expect(matchNamespaceSelector(compileSelector(runlevel('2')), request, lookup)).toEqual({ matches: true });
    expect(lookup.calls).toEqual([]);
  });
});

describe('matchNamespaceSelector: asynchronous lookups', () => {
  const live: NamespaceLookup = async (name) => {
    await Promise.resolve();
    const labels = namespaces[name];
    return labels ? { found: true, labels } : { found: false };
  };

  it.each([
    ['found and matching', '1', { matches: true }],
    ['found, not matching', 'default', { matches: false }],
  ] as [string, string, unknown][])('%s', async (_name, namespace, want) => {
    const result = matchNamespaceSelector(compileSelector(runlevel('1')), attrs(namespace, 'pods', '', 'CREATE'), live);
    expect(result).toBeInstanceOf(Promise);
    expect(await result).toEqual(want);
  });

  it('a missing namespace is a 404', async () => {
    const result = await matchNamespaceSelector(
      compileSelector(runlevel('1')),
      attrs('gone', 'pods', '', 'CREATE'),
      live,
    );
    expect(!result.matches && result.error?.code).toBe(404);
  });

  it('a rejected lookup is a 500', async () => {
    const rejecting: NamespaceLookup = () => Promise.reject(new Error('connection refused'));
    const result = await matchNamespaceSelector(
      compileSelector(runlevel('1')),
      attrs('1', 'pods', '', 'CREATE'),
      rejecting,
    );
    expect(!result.matches && result.error?.message).toBe('Internal error occurred: connection refused');
  });
});
