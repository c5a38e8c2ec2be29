import { describe, expect, it } from 'vitest';
import type { AdmissionRequest } from '../types/review.js';
import type { JsonValue } from '../types/json.js';
import { buildCelRequest, toCelRequest, toCelValue } from './cel-values.js';

/** Reads a nested value of a converted document: at(v, 'spec', 'ports', 0). */
function at(value: unknown, ...path: (string | number)[]): unknown {
  return path.reduce<unknown>((v, key) => (v as Record<string | number, unknown> | null)?.[key], value);
}

describe('toCelValue: JSON integers become CEL ints', () => {
  it.each([
    ['integer', 3, 3n],
    ['zero', 0, 0n],
    ['negative', -7, -7n],
    ['integral double literal (indistinguishable after JSON.parse)', 2.0, 2n],
    ['fraction stays double', 1.5, 1.5],
    ['beyond int64 stays double', 1e19, 1e19],
    ['int64 lower bound', -(2 ** 63), -(2n ** 63n)],
    ['string', '3', '3'],
    ['bool', true, true],
    ['null', null, null],
    ['undefined is null', undefined, null],
  ] as [string, JsonValue | undefined, unknown][])('%s', (_name, input, want) => {
    expect(toCelValue(input)).toEqual(want);
  });

  it('converts nested values', () => {
    const out = toCelValue({ spec: { replicas: 2, ratio: 0.5, ports: [{ port: 80 }] } });
    expect(at(out, 'spec', 'replicas')).toBe(2n);
    expect(at(out, 'spec', 'ratio')).toBe(0.5);
    expect(at(out, 'spec', 'ports', 0, 'port')).toBe(80n);
  });

  it('keeps prototype-looking keys as plain keys', () => {
    const input = JSON.parse('{"__proto__": {"x": 1}, "constructor": 2}') as JsonValue;
    const out = toCelValue(input) as Record<string, unknown>;
    expect(Object.keys(out).sort()).toEqual(['__proto__', 'constructor']);
    expect(out['constructor']).toBe(2n);
  });

  it('converts each object once (cached by identity)', () => {
    const object = { a: 1 };
    expect(toCelValue(object)).toBe(toCelValue(object));
    expect(toCelValue({ a: 1 })).not.toBe(toCelValue(object));
  });
});

describe('toCelRequest: fields as CreateAdmissionRequest builds them', () => {
  const base: AdmissionRequest = {
    uid: 'abc',
    kind: { group: 'apps', version: 'v1', kind: 'Deployment' },
    resource: { group: 'apps', version: 'v1', resource: 'deployments' },
    operation: 'CREATE',
    userInfo: { username: 'alice', groups: ['dev'], extra: { scopes: ['a'] } },
    object: { metadata: { name: 'x' } },
    options: { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1', dryRun: ['All'] },
  };

  it.each([
    ['uid is emptied and object/oldObject are dropped', base, (r) => !('object' in r) && !('uid' in r)],
    ['requestKind defaults to kind', base, (r) => at(r, 'requestKind', 'kind') === 'Deployment'],
    ['requestResource defaults to resource', base, (r) => at(r, 'requestResource', 'resource') === 'deployments'],
    ['empty subResource omitted', base, (r) => !('subResource' in r) && !('requestSubResource' in r)],
    [
      'subResource kept',
      { ...base, subResource: 'scale' },
      (r) => r['subResource'] === 'scale' && r['requestSubResource'] === 'scale',
    ],
    ['no name, no namespace: omitted', base, (r) => !('name' in r) && !('namespace' in r)],
    [
      'name and namespace kept',
      { ...base, name: 'n', namespace: 'ns' },
      (r) => r['name'] === 'n' && r['namespace'] === 'ns',
    ],
    ['dryRun always present', base, (r) => r['dryRun'] === false],
    ['dryRun true', { ...base, dryRun: true }, (r) => r['dryRun'] === true],
    ['options converted', base, (r) => at(r, 'options', 'kind') === 'CreateOptions'],
    ['options null when absent', { ...base, options: undefined }, (r) => r['options'] === null],
    [
      'userInfo kept',
      base,
      (r) => at(r, 'userInfo', 'username') === 'alice' && at(r, 'userInfo', 'extra', 'scopes', 0) === 'a',
    ],
    [
      'empty userInfo fields omitted',
      { ...base, userInfo: { groups: [] } },
      (r) => Object.keys(r['userInfo'] as object).length === 0,
    ],
  ] as [string, AdmissionRequest, (r: Record<string, unknown>) => boolean][])('%s', (_name, request, check) => {
    const celRequest = buildCelRequest(request);
    expect(celRequest.uid).toBe('');
    expect(check(toCelRequest(celRequest))).toBe(true);
  });
});
