import { describe, expect, it } from 'vitest';
import { parseImmutableFieldsConfig } from './config.js';
import { PluginConfigError } from '@hookgate/plugin-sdk';

describe('parseImmutableFieldsConfig', () => {
  it('reads both shapes', () => {
    const policy = parseImmutableFieldsConfig(
      `
kinds:
  ec2.aws.crossplane.io/VPC: [spec.forProvider.region]
  ConfigMap: ['data[a.b]']
crds:
  - rdsinstances.database.aws.crossplane.io/v1beta1:
      immutableFieldPaths: [spec.forProvider.vpcId]
    buckets.s3.aws.crossplane.io:
      immutableFieldPaths: [spec.forProvider.locationConstraint]
`,
      'ok.yaml',
    );
    expect(policy.entries.map((e) => [e.target, e.paths.map((p) => p.text)])).toEqual([
      [{ by: 'kind', group: 'ec2.aws.crossplane.io', kind: 'VPC' }, ['spec.forProvider.region']],
      [{ by: 'kind', group: '', kind: 'ConfigMap' }, ['data[a.b]']],
      [
        { by: 'resource', group: 'database.aws.crossplane.io', resource: 'rdsinstances', version: 'v1beta1' },
        ['spec.forProvider.vpcId'],
      ],
      [{ by: 'resource', group: 's3.aws.crossplane.io', resource: 'buckets' }, ['spec.forProvider.locationConstraint']],
    ]);
  });

  const invalid: { name: string; yaml: string; problems: string[] }[] = [
    { name: 'an empty configuration', yaml: '', problems: ['kinds: Required value'] },
    {
      name: 'a resource where a Kind belongs',
      yaml: 'kinds: { apps/deployments: [spec.selector] }',
      problems: [
        'kinds[apps/deployments]: Invalid value: "apps/deployments": must be group/Kind, or Kind alone for the core group (e.g. ec2.aws.crossplane.io/VPC, ConfigMap)',
      ],
    },
    {
      name: 'a broken field path',
      yaml: 'kinds: { apps/Deployment: [spec.selector, "spec..x"] }',
      problems: ['kinds[apps/Deployment][1]: Invalid value: "spec..x": is not a field path: misplaced . at position 4'],
    },
    {
      name: 'an empty path list',
      yaml: 'kinds: { apps/Deployment: [] }',
      problems: [
        'kinds[apps/Deployment]: Invalid value: []string{}: must be a non-empty list of field paths such as spec.forProvider.region',
      ],
    },
    {
      name: 'a crds entry with a typo',
      yaml: 'crds: [{ vpcs.ec2.aws.crossplane.io/v1beta1: { immutableFieldPath: [spec.x] } }]',
      problems: [
        'crds[0][vpcs.ec2.aws.crossplane.io/v1beta1].immutableFieldPaths: Invalid value: "null": must be a non-empty list of field paths such as spec.forProvider.region',
        'crds[0][vpcs.ec2.aws.crossplane.io/v1beta1].immutableFieldPath: Unknown field: did you mean "immutableFieldPaths"?',
      ],
    },
    {
      name: 'a crds key in the wrong form',
      yaml: 'crds: [{ VPC: { immutableFieldPaths: [spec.x] } }]',
      problems: [
        'crds[0][VPC]: Invalid value: "VPC": must be <plural>.<group>/<version>, e.g. vpcs.ec2.aws.crossplane.io/v1beta1',
      ],
    },
  ];
  for (const c of invalid) {
    it(`refuses ${c.name}, naming the field`, () => {
      try {
        parseImmutableFieldsConfig(c.yaml, 'bad.yaml');
        expect.unreachable('configuration was accepted');
      } catch (error) {
        expect(error).toBeInstanceOf(PluginConfigError);
        expect((error as PluginConfigError).problems).toEqual(c.problems);
      }
    });
  }
});
