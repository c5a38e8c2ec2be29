import { describe, expect, it } from 'vitest';
import { parsePodDefaultsConfig } from './config.js';
import { PluginConfigError } from '@hookgate/plugin-sdk';

describe('parsePodDefaultsConfig', () => {
  it('reads a complete configuration', () => {
    const config = parsePodDefaultsConfig(
      [
        'imagePullPolicy: IfNotPresent',
        'resources: { requests: { cpu: 50m, memory: 64Mi, example.com/gpu: "1" } }',
        'containers: [containers]',
        'namespaceLabels: { payments: { team: payments, cost-center: "4711" } }',
        'fromNamespace: { labels: [team], annotations: { example.com/cost-center: cost-center } }',
      ].join('\n'),
      'test.yaml',
    );
    expect(config).toEqual({
      imagePullPolicy: 'IfNotPresent',
      requests: { cpu: '50m', memory: '64Mi', 'example.com/gpu': '1' },
      containerLists: ['containers'],
      namespaceLabels: { payments: { team: 'payments', 'cost-center': '4711' } },
      copyLabels: ['team'],
      copyAnnotations: { 'example.com/cost-center': 'cost-center' },
    });
  });

  it('an empty file means no defaults, both container lists', () => {
    expect(parsePodDefaultsConfig('', 'empty.yaml')).toEqual({
      requests: {},
      containerLists: ['containers', 'initContainers'],
      namespaceLabels: {},
      copyLabels: [],
      copyAnnotations: {},
    });
  });

  const invalid: { name: string; yaml: string; problems: string[] }[] = [
    {
      name: 'unknown pull policy',
      yaml: 'imagePullPolicy: Sometimes',
      problems: [
        'imagePullPolicy: Unsupported value: "Sometimes": supported values: "Always", "IfNotPresent", "Never"',
      ],
    },
    {
      name: 'an empty pull policy, answered with the supported values',
      yaml: 'imagePullPolicy: ""',
      problems: ['imagePullPolicy: Unsupported value: "": supported values: "Always", "IfNotPresent", "Never"'],
    },
    {
      name: 'a typo in a top-level key',
      yaml: 'imagePulPolicy: Always',
      problems: ['imagePulPolicy: Unknown field: did you mean "imagePullPolicy"?'],
    },
    {
      name: 'bad quantity and unquoted number',
      yaml: 'resources: { requests: { cpu: lots, memory: 64 } }',
      problems: [
        'resources.requests[memory]: Invalid value: 64: must be a string (quote numbers and booleans in YAML)',
        'resources.requests[cpu]: Invalid value: "lots": must be a quantity such as 100m, 0.5 or 128Mi',
      ],
    },
    {
      name: 'unknown container list',
      yaml: 'containers: [ephemeralContainers]',
      problems: [
        'containers[0]: Unsupported value: "ephemeralContainers": supported values: "containers", "initContainers"',
      ],
    },
    {
      name: 'invalid label value in the namespace map',
      yaml: 'namespaceLabels: { payments: { team: "has spaces" } }',
      problems: [
        'namespaceLabels[payments][team]: Invalid value: "has spaces": must be a label value (63 characters at most: letters, digits, "-", "_", ".")',
      ],
    },
    {
      name: 'fromNamespace without any namespace labels',
      yaml: 'fromNamespace: { labels: [team] }',
      problems: [
        'namespaceLabels: Invalid value: {}: fromNamespace needs the labels of at least one namespace here (the plugin cannot read Namespace objects)',
      ],
    },
    {
      name: 'the root is not a mapping',
      yaml: '- a\n- b',
      problems: ['(document): Invalid value: []string{"a", "b"}: must be an object'],
    },
  ];
  for (const c of invalid) {
    it(`refuses ${c.name}, naming the field`, () => {
      try {
        parsePodDefaultsConfig(c.yaml, 'bad.yaml');
        expect.unreachable('configuration was accepted');
      } catch (error) {
        expect(error).toBeInstanceOf(PluginConfigError);
        expect((error as PluginConfigError).problems).toEqual(c.problems);
        expect((error as Error).message).toContain('pod-defaults: invalid configuration in bad.yaml');
      }
    });
  }

  it('reports YAML syntax errors with a line', () => {
    expect(() => parsePodDefaultsConfig('a: [1,\nb: {', 'broken.yaml')).toThrow(/broken\.yaml[\s\S]*YAML syntax/);
  });
});
