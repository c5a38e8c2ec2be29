import { describe, expect, it } from 'vitest';
import type { JsonValue } from '@hookgate/admission';
import { decideImmutableFields, findChanges, renderValue, type FieldChange, type ImmutableRequest } from './decide.js';
import { parseFieldPath, type FieldPath } from './field-path.js';
import { parseImmutableFieldsConfig } from './config.js';

function path(text: string): FieldPath {
  const parsed = parseFieldPath(text);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.path;
}

describe('findChanges', () => {
  const cases: {
    name: string;
    path: string;
    before: JsonValue | undefined;
    after: JsonValue | undefined;
    changes: FieldChange[];
  }[] = [
    {
      name: 'unchanged value',
      path: 'spec.region',
      before: { spec: { region: 'a' } },
      after: { spec: { region: 'a' } },
      changes: [],
    },
    {
      name: 'unset → set is allowed (set once)',
      path: 'spec.region',
      before: { spec: {} },
      after: { spec: { region: 'a' } },
      changes: [],
    },
    { name: 'unset → unset', path: 'spec.region', before: {}, after: {}, changes: [] },
    {
      name: 'parent unset → set is allowed',
      path: 'spec.forProvider.region',
      before: { spec: {} },
      after: { spec: { forProvider: { region: 'a' } } },
      changes: [],
    },
    {
      name: 'null counts as unset before',
      path: 'spec.region',
      before: { spec: { region: null } },
      after: { spec: { region: 'a' } },
      changes: [],
    },
    {
      name: 'set → changed is denied',
      path: 'spec.region',
      before: { spec: { region: 'us-east-1' } },
      after: { spec: { region: 'eu-west-1' } },
      changes: [{ path: 'spec.region', before: 'us-east-1', after: 'eu-west-1' }],
    },
    {
      name: 'set → unset is denied',
      path: 'spec.region',
      before: { spec: { region: 'a' } },
      after: { spec: {} },
      changes: [{ path: 'spec.region', before: 'a', after: undefined }],
    },
    {
      name: 'set → null is denied as unset',
      path: 'spec.region',
      before: { spec: { region: 'a' } },
      after: { spec: { region: null } },
      changes: [{ path: 'spec.region', before: 'a', after: undefined }],
    },
    {
      name: 'parent removed is set → unset',
      path: 'spec.forProvider.region',
      before: { spec: { forProvider: { region: 'a' } } },
      after: { spec: {} },
      changes: [{ path: 'spec.forProvider.region', before: 'a', after: undefined }],
    },
    {
      name: 'type change of a parent is set → unset',
      path: 'spec.forProvider.region',
      before: { spec: { forProvider: { region: 'a' } } },
      after: { spec: { forProvider: 'x' } },
      changes: [{ path: 'spec.forProvider.region', before: 'a', after: undefined }],
    },
    {
      name: 'number vs string is a change',
      path: 'spec.size',
      before: { spec: { size: 1 } },
      after: { spec: { size: '1' } },
      changes: [{ path: 'spec.size', before: 1, after: '1' }],
    },
    {
      name: 'false is a set value',
      path: 'spec.flag',
      before: { spec: { flag: false } },
      after: { spec: { flag: true } },
      changes: [{ path: 'spec.flag', before: false, after: true }],
    },
    {
      name: 'an empty string is a set value',
      path: 'spec.name',
      before: { spec: { name: '' } },
      after: { spec: { name: 'x' } },
      changes: [{ path: 'spec.name', before: '', after: 'x' }],
    },
    {
      name: 'a whole map with reordered keys is unchanged',
      path: 'spec.tags',
      before: { spec: { tags: { a: '1', b: '2' } } },
      after: { spec: { tags: { b: '2', a: '1' } } },
      changes: [],
    },
    {
      name: 'a whole map with a key added is changed',
      path: 'spec.tags',
      before: { spec: { tags: { a: '1' } } },
      after: { spec: { tags: { a: '1', b: '2' } } },
      changes: [{ path: 'spec.tags', before: { a: '1' }, after: { a: '1', b: '2' } }],
    },
    {
      name: 'a whole list reordered is changed',
      path: 'spec.zones',
      before: { spec: { zones: ['a', 'b'] } },
      after: { spec: { zones: ['b', 'a'] } },
      changes: [{ path: 'spec.zones', before: ['a', 'b'], after: ['b', 'a'] }],
    },
    {
      name: 'an empty list is a set value',
      path: 'spec.zones',
      before: { spec: { zones: [] } },
      after: { spec: { zones: ['a'] } },
      changes: [{ path: 'spec.zones', before: [], after: ['a'] }],
    },
    {
      name: 'an index: element changed',
      path: 'spec.ports[0].port',
      before: { spec: { ports: [{ port: 80 }] } },
      after: { spec: { ports: [{ port: 81 }] } },
      changes: [{ path: 'spec.ports[0].port', before: 80, after: 81 }],
    },
    {
      name: 'an index beyond the old list may be set',
      path: 'spec.ports[1].port',
      before: { spec: { ports: [{ port: 80 }] } },
      after: { spec: { ports: [{ port: 80 }, { port: 443 }] } },
      changes: [],
    },
    {
      name: 'wildcard over a list reports each changed element',
      path: 'spec.containers[*].image',
      before: { spec: { containers: [{ image: 'a:1' }, { image: 'b:1' }, { image: 'c:1' }] } },
      after: { spec: { containers: [{ image: 'a:2' }, { image: 'b:1' }, { image: 'c:2' }] } },
      changes: [
        { path: 'spec.containers[0].image', before: 'a:1', after: 'a:2' },
        { path: 'spec.containers[2].image', before: 'c:1', after: 'c:2' },
      ],
    },
    {
      name: 'wildcard: appended elements may be set',
      path: 'spec.volumes[*].name',
      before: { spec: { volumes: [{ name: 'a' }] } },
      after: { spec: { volumes: [{ name: 'a' }, { name: 'b' }] } },
      changes: [],
    },
    {
      name: 'wildcard: a removed element is set → unset',
      path: 'spec.volumes[*].name',
      before: { spec: { volumes: [{ name: 'a' }, { name: 'b' }] } },
      after: { spec: { volumes: [{ name: 'a' }] } },
      changes: [{ path: 'spec.volumes[1].name', before: 'b', after: undefined }],
    },
    {
      name: 'wildcard over a map',
      path: 'spec.endpoints[*].url',
      before: { spec: { endpoints: { main: { url: 'x' }, backup: { url: 'y' } } } },
      after: { spec: { endpoints: { main: { url: 'x' }, backup: { url: 'z' } } } },
      changes: [{ path: 'spec.endpoints.backup.url', before: 'y', after: 'z' }],
    },
    {
      name: 'a bracketed key is rendered in brackets',
      path: 'metadata.labels[app.kubernetes.io/name]',
      before: { metadata: { labels: { 'app.kubernetes.io/name': 'a' } } },
      after: { metadata: { labels: {} } },
      changes: [{ path: 'metadata.labels[app.kubernetes.io/name]', before: 'a', after: undefined }],
    },
    {
      name: 'no old object at all allows anything',
      path: 'spec.region',
      before: undefined,
      after: { spec: { region: 'a' } },
      changes: [],
    },
    {
      name: 'no new object removes everything',
      path: 'spec.region',
      before: { spec: { region: 'a' } },
      after: undefined,
      changes: [{ path: 'spec.region', before: 'a', after: undefined }],
    },
    {
      name: 'an inherited property name is not a field',
      path: 'spec.constructor',
      before: { spec: {} },
      after: { spec: { constructor: 'x' } },
      changes: [],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      expect(findChanges(c.before, c.after, path(c.path))).toEqual(c.changes);
    });
  }
});

describe('renderValue', () => {
  const cases: { name: string; value: JsonValue | undefined; rendered: string }[] = [
    { name: 'a string is quoted', value: 'us-east-1', rendered: '"us-east-1"' },
    { name: 'a number', value: 42, rendered: '42' },
    { name: 'unset', value: undefined, rendered: '<unset>' },
    { name: 'null', value: null, rendered: 'null' },
    { name: 'a map is compact JSON', value: { a: 1, b: [true] }, rendered: '{"a":1,"b":[true]}' },
    { name: 'a long value is truncated to 64 characters', value: 'x'.repeat(200), rendered: `"${'x'.repeat(60)}...` },
  ];
  for (const c of cases) {
    it(c.name, () => {
      expect(renderValue(c.value)).toBe(c.rendered);
      expect(renderValue(c.value).length).toBeLessThanOrEqual(64);
    });
  }
});

describe('decideImmutableFields', () => {
  const policy = parseImmutableFieldsConfig(
    `
kinds:
  ec2.aws.crossplane.io/VPC: [spec.forProvider.region, spec.forProvider.cidrBlock]
  ConfigMap: ['data[app.properties]']
crds:
  - rdsinstances.database.aws.crossplane.io/v1beta1:
      immutableFieldPaths: [spec.forProvider.vpcId]
  - vpcs.ec2.aws.crossplane.io:
      immutableFieldPaths: [spec.forProvider.region, spec.forProvider.tags]
`,
    'test.yaml',
  );
  const vpc = (forProvider: Record<string, JsonValue>): JsonValue => ({
    apiVersion: 'ec2.aws.crossplane.io/v1beta1',
    kind: 'VPC',
    metadata: { name: 'prod-vpc' },
    spec: { forProvider },
  });
  const vpcRequest = (
    before: Record<string, JsonValue>,
    after: Record<string, JsonValue>,
    extra: Partial<ImmutableRequest> = {},
  ): ImmutableRequest => ({
    operation: 'UPDATE',
    kind: { group: 'ec2.aws.crossplane.io', kind: 'VPC' },
    resource: { group: 'ec2.aws.crossplane.io', version: 'v1beta1', resource: 'vpcs' },
    name: 'prod-vpc',
    oldObject: vpc(before),
    object: vpc(after),
    ...extra,
  });

  const cases: { name: string; request: ImmutableRequest; allowed: boolean; message?: string }[] = [
    {
      name: 'no configured field changed',
      request: vpcRequest({ region: 'us-east-1' }, { region: 'us-east-1', enableDns: true }),
      allowed: true,
    },
    { name: 'a field set for the first time', request: vpcRequest({}, { region: 'us-east-1' }), allowed: true },
    {
      name: 'a changed field is named with both values (422 Invalid)',
      request: vpcRequest({ region: 'us-east-1' }, { region: 'eu-west-1' }),
      allowed: false,
      message:
        'VPC.ec2.aws.crossplane.io "prod-vpc" is invalid: spec.forProvider.region: cannot be changed once set (was "us-east-1", now "eu-west-1")',
    },
    {
      name: 'every changed field is named, from kinds and crds entries, each path once',
      request: vpcRequest(
        { region: 'a', cidrBlock: '10.0.0.0/16', tags: { env: 'prod' } },
        { region: 'b', tags: { env: 'dev' } },
      ),
      allowed: false,
      message:
        'VPC.ec2.aws.crossplane.io "prod-vpc" is invalid: spec.forProvider.region: cannot be changed once set (was "a", now "b"); ' +
        'spec.forProvider.cidrBlock: cannot be changed once set (was "10.0.0.0/16", now <unset>); ' +
        'spec.forProvider.tags: cannot be changed once set (was {"env":"prod"}, now {"env":"dev"})',
    },
    {
      name: 'a whole-object value is truncated in the message',
      request: vpcRequest({ tags: { big: 'v'.repeat(500) } }, { tags: {} }),
      allowed: false,
      message: `VPC.ec2.aws.crossplane.io "prod-vpc" is invalid: spec.forProvider.tags: cannot be changed once set (was {"big":"${'v'.repeat(53)}..., now {})`,
    },
    {
      name: 'crds entry matched by resource and version',
      request: {
        operation: 'UPDATE',
        kind: { group: 'database.aws.crossplane.io', kind: 'RDSInstance' },
        resource: { group: 'database.aws.crossplane.io', version: 'v1beta1', resource: 'rdsinstances' },
        name: 'db',
        oldObject: { spec: { forProvider: { vpcId: 'vpc-1' } } },
        object: { spec: { forProvider: { vpcId: 'vpc-2' } } },
      },
      allowed: false,
      message:
        'RDSInstance.database.aws.crossplane.io "db" is invalid: spec.forProvider.vpcId: cannot be changed once set (was "vpc-1", now "vpc-2")',
    },
    {
      name: 'crds entry for another version does not apply',
      request: {
        operation: 'UPDATE',
        kind: { group: 'database.aws.crossplane.io', kind: 'RDSInstance' },
        resource: { group: 'database.aws.crossplane.io', version: 'v1alpha1', resource: 'rdsinstances' },
        oldObject: { spec: { forProvider: { vpcId: 'vpc-1' } } },
        object: { spec: { forProvider: { vpcId: 'vpc-2' } } },
      },
      allowed: true,
    },
    {
      name: 'core kind with a bracketed key',
      request: {
        operation: 'UPDATE',
        kind: { group: '', kind: 'ConfigMap' },
        resource: { group: '', version: 'v1', resource: 'configmaps' },
        namespace: 'default',
        name: 'settings',
        oldObject: { data: { 'app.properties': 'a=1' } },
        object: { data: { 'app.properties': 'a=2' } },
      },
      allowed: false,
      message:
        'ConfigMap "settings" is invalid: data[app.properties]: cannot be changed once set (was "a=1", now "a=2")',
    },
    {
      name: 'CREATE is never checked',
      request: vpcRequest({ region: 'a' }, { region: 'b' }, { operation: 'CREATE' }),
      allowed: true,
    },
    {
      name: 'DELETE is never checked',
      request: vpcRequest({ region: 'a' }, { region: 'b' }, { operation: 'DELETE' }),
      allowed: true,
    },
    {
      name: 'a status subresource update is not checked',
      request: vpcRequest({ region: 'a' }, { region: 'b' }, { subResource: 'status' }),
      allowed: true,
    },
    {
      name: 'an unconfigured kind is allowed',
      request: vpcRequest(
        { region: 'a' },
        { region: 'b' },
        {
          kind: { group: 'ec2.aws.crossplane.io', kind: 'Subnet' },
          resource: { group: 'ec2.aws.crossplane.io', version: 'v1beta1', resource: 'subnets' },
        },
      ),
      allowed: true,
    },
    {
      name: 'the name falls back to the object',
      request: vpcRequest({ region: 'a' }, { region: 'b' }, { name: '' }),
      allowed: false,
      message:
        'VPC.ec2.aws.crossplane.io "prod-vpc" is invalid: spec.forProvider.region: cannot be changed once set (was "a", now "b")',
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const decision = decideImmutableFields(c.request, policy);
      expect(decision.allowed).toBe(c.allowed);
      if (decision.allowed) return;
      expect(decision.code).toBe(422);
      expect(decision.reason).toBe('Invalid');
      if (c.message !== undefined) expect(decision.message).toBe(c.message);
    });
  }

  it('applying the same UPDATE twice gives the same answer (no state)', () => {
    const request = vpcRequest({ region: 'a' }, { region: 'b' });
    expect(decideImmutableFields(request, policy)).toEqual(decideImmutableFields(request, policy));
  });
});
