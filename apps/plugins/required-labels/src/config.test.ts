import { describe, expect, it } from 'vitest';
import { parseRequiredLabelsConfig } from './config.js';
import { PluginConfigError } from '@hookgate/plugin-sdk';

describe('parseRequiredLabelsConfig', () => {
  it('reads a complete configuration', () => {
    const policy = parseRequiredLabelsConfig(
      `
namespaceLabels: { payments: { tier: prod } }
rules:
  - name: team
    kinds: ['*', apps/Deployment, Service, 'example.com/*']
    namespaceSelector:
      matchLabels: { tier: prod }
      matchExpressions: [{ key: zone, operator: NotIn, values: [a] }]
    namespaces: [payments]
    labels:
      - { key: team, values: [a, b], pattern: '[a-z]+' }
      - { key: owner }
`,
      'ok.yaml',
    );
    expect(policy.namespaceLabels).toEqual({ payments: { tier: 'prod' } });
    const rule = policy.rules[0]!;
    expect(rule.kinds).toEqual([
      { group: '*', kind: '*' },
      { group: 'apps', kind: 'Deployment' },
      { group: '', kind: 'Service' },
      { group: 'example.com', kind: '*' },
    ]);
    expect(rule.namespaceSelector).toEqual({
      matchLabels: { tier: 'prod' },
      matchExpressions: [{ key: 'zone', operator: 'NotIn', values: ['a'] }],
    });
    expect(rule.namespaces).toEqual(['payments']);
    expect(rule.labels[0]?.pattern?.regex.test('abc')).toBe(true);
    expect(rule.labels[0]?.pattern?.regex.test('abc1')).toBe(false);
    expect(rule.labels[1]).toEqual({ key: 'owner' });
  });

  const invalid: { name: string; yaml: string; problems: string[] }[] = [
    { name: 'no rules', yaml: 'namespaceLabels: {}', problems: ['rules: Required value'] },
    {
      name: 'a rule without name, kinds and labels',
      yaml: 'rules: [{}]',
      problems: [
        'rules[0].name: Required value',
        'rules[0].kinds: Required value',
        'rules[0].labels: Invalid value: "null": must be a non-empty list of { key, values?, pattern? }',
      ],
    },
    {
      name: 'a resource name instead of a Kind',
      yaml: 'rules: [{ name: a, kinds: [apps/deployments], labels: [{ key: team }] }]',
      problems: [
        'rules[0].kinds[0]: Invalid value: "apps/deployments": must be Kind (core group), group/Kind or *, with the Kind capitalised as in the object (Deployment, not deployments)',
      ],
    },
    {
      name: 'an invalid regular expression',
      yaml: "rules: [{ name: a, kinds: [Pod], labels: [{ key: team, pattern: '(a' }] }]",
      problems: [
        'rules[0].labels[0].pattern: Invalid value: "(a": is not a valid regular expression (Invalid regular expression: /(a/u: Unterminated group)',
      ],
    },
    {
      name: 'an invalid label key and an empty values list',
      yaml: "rules: [{ name: a, kinds: [Pod], labels: [{ key: 'bad key', values: [] }] }]",
      problems: [
        'rules[0].labels[0].key: Invalid value: "bad key": must be a label key ([prefix/]name)',
        'rules[0].labels[0].values: Invalid value: []string{}: must list at least one value (omit it to allow any value)',
      ],
    },
    {
      name: 'duplicate rule names',
      yaml: 'rules: [{ name: a, kinds: [Pod], labels: [{ key: x }] }, { name: a, kinds: [Pod], labels: [{ key: y }] }]',
      problems: ['rules[1].name: Invalid value: "a": must be unique'],
    },
    {
      name: 'an empty rule name (it names the rule in every denial)',
      yaml: 'rules: [{ name: "", kinds: [Pod], labels: [{ key: x }] }]',
      problems: ['rules[0].name: Invalid value: "": must be non-empty'],
    },
    {
      name: 'an empty selector operator, answered with the supported operators',
      yaml: `rules:
  - name: a
    kinds: [Pod]
    labels: [{ key: x }]
    namespaceSelector:
      matchExpressions: [{ key: a, operator: "" }]`,
      problems: [
        'rules[0].namespaceSelector.matchExpressions[0].operator: Unsupported value: "": supported values: "In", "NotIn", "Exists", "DoesNotExist"',
      ],
    },
    {
      name: 'selector operators and values',
      yaml: `rules:
  - name: a
    kinds: [Pod]
    labels: [{ key: x }]
    namespaceSelector:
      matchExpressions:
        - { key: a, operator: In }
        - { key: b, operator: Exists, values: [x] }
        - { key: c, operator: Matches, values: [x] }`,
      problems: [
        'rules[0].namespaceSelector.matchExpressions[0].values: Required value',
        'rules[0].namespaceSelector.matchExpressions[1].values: Invalid value: []string{"x"}: must be empty when operator is Exists',
        'rules[0].namespaceSelector.matchExpressions[2].operator: Unsupported value: "Matches": supported values: "In", "NotIn", "Exists", "DoesNotExist"',
      ],
    },
    {
      name: 'a selector key and value the apiserver would refuse (compileSelector would match nothing)',
      yaml: `rules:
  - name: a
    kinds: [Pod]
    labels: [{ key: x }]
    namespaceSelector:
      matchLabels: { 'bad key': prod }
      matchExpressions: [{ key: zone, operator: In, values: ['a b'] }]`,
      problems: [
        'rules[0].namespaceSelector.matchLabels[bad key]: Invalid value: "bad key": must be a label key ([prefix/]name)',
        'rules[0].namespaceSelector.matchExpressions[0].values[0]: Invalid value: "a b": must be a valid label value',
      ],
    },
    {
      name: 'an unknown field in a rule',
      yaml: 'rules: [{ name: a, kind: [Pod], kinds: [Pod], labels: [{ key: x }] }]',
      problems: ['rules[0].kind: Unknown field: did you mean "kinds"?'],
    },
  ];
  it('reads a null matchExpressions as absent, as the apiserver reads a null list', () => {
    const policy = parseRequiredLabelsConfig(
      'rules: [{ name: a, kinds: [Pod], labels: [{ key: x }], namespaceSelector: { matchExpressions: null } }]',
      'null.yaml',
    );
    expect(policy.rules[0]?.namespaceSelector).toEqual({ matchLabels: {}, matchExpressions: [] });
  });

  for (const c of invalid) {
    it(`refuses ${c.name}, naming the field`, () => {
      try {
        parseRequiredLabelsConfig(c.yaml, 'bad.yaml');
        expect.unreachable('configuration was accepted');
      } catch (error) {
        expect(error).toBeInstanceOf(PluginConfigError);
        expect((error as PluginConfigError).problems).toEqual(c.problems);
      }
    });
  }
});
