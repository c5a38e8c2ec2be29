import { describe, expect, it } from 'vitest';
import { qualifiedResource, resourcePath } from './resource.js';

const core = { group: '', version: 'v1', resource: 'namespaces' };
const pods = { group: '', version: 'v1', resource: 'pods' };
const deployments = { group: 'apps', version: 'v1', resource: 'deployments' };

describe('resourcePath', () => {
  const cases = [
    { name: 'a cluster-scoped list', ref: core, scope: {}, want: '/api/v1/namespaces' },
    { name: 'a cluster-scoped object', ref: core, scope: { name: 'shop' }, want: '/api/v1/namespaces/shop' },
    { name: 'a core list across namespaces', ref: pods, scope: {}, want: '/api/v1/pods' },
    {
      name: 'a namespaced core object',
      ref: pods,
      scope: { namespace: 'shop', name: 'web-0' },
      want: '/api/v1/namespaces/shop/pods/web-0',
    },
    {
      name: 'a list of a named group in one namespace',
      ref: deployments,
      scope: { namespace: 'shop' },
      want: '/apis/apps/v1/namespaces/shop/deployments',
    },
    { name: 'a named group across namespaces', ref: deployments, scope: {}, want: '/apis/apps/v1/deployments' },
    {
      name: 'a name needing escapes',
      ref: { group: 'example.com', version: 'v1', resource: 'widgets' },
      scope: { name: 'a:b' },
      want: '/apis/example.com/v1/widgets/a%3Ab',
    },
  ];
  for (const c of cases) it(c.name, () => expect(resourcePath(c.ref, c.scope)).toBe(c.want));

  it.each([
    { scope: { name: '../secrets' }, what: 'name "../secrets"' },
    { scope: { namespace: '' }, what: 'namespace ""' },
    { scope: { name: '..' }, what: 'name ".."' },
  ])('refuses $what, which would change the path', ({ scope, what }) => {
    expect(() => resourcePath(pods, scope)).toThrow(`${what} cannot be part of an apiserver path`);
  });
});

describe('qualifiedResource', () => {
  it('names core resources bare and others with their group', () => {
    expect([qualifiedResource(core), qualifiedResource(deployments)]).toEqual(['namespaces', 'deployments.apps']);
  });
});
