import { describe, expect, it } from 'vitest';
import { DEFAULT_KEY_PREFIX, DEFAULT_PENDING_TTL_SECONDS, parseLedgerConfig } from './config.js';
import { PluginConfigError } from '@hookgate/plugin-sdk';

describe('parseLedgerConfig', () => {
  it('reads a configuration with defaults', () => {
    expect(
      parseLedgerConfig(
        'ledgers: [{ name: hostnames, kinds: [networking.k8s.io/Ingress, Service], annotation: example.com/host }]',
        'ok.yaml',
      ),
    ).toEqual({
      keyPrefix: DEFAULT_KEY_PREFIX,
      pendingTtlSeconds: DEFAULT_PENDING_TTL_SECONDS,
      ledgers: [
        {
          name: 'hostnames',
          kinds: [
            { group: 'networking.k8s.io', kind: 'Ingress' },
            { group: '', kind: 'Service' },
          ],
          annotation: 'example.com/host',
          scope: 'Cluster',
          lowercase: false,
        },
      ],
    });
  });

  it('reads every field', () => {
    const config = parseLedgerConfig(
      'keyPrefix: "x:"\npendingTtlSeconds: 120\nledgers: [{ name: slots, kinds: ["*"], annotation: a/b, scope: Namespace, lowercase: true }]',
      'ok.yaml',
    );
    expect(config).toEqual({
      keyPrefix: 'x:',
      pendingTtlSeconds: 120,
      ledgers: [
        { name: 'slots', kinds: [{ group: '*', kind: '*' }], annotation: 'a/b', scope: 'Namespace', lowercase: true },
      ],
    });
  });

  const invalid: { name: string; yaml: string; problems: string[] }[] = [
    {
      name: 'no ledgers',
      yaml: 'keyPrefix: x',
      problems: [
        'ledgers: Invalid value: "null": must be a non-empty list of { name, kinds, annotation, scope?, lowercase? }',
      ],
    },
    {
      name: 'a ledger with bad name, kind, annotation, scope and lowercase',
      yaml: 'ledgers: [{ name: Host_Names, kinds: [ingresses], annotation: "not valid", scope: Global, lowercase: "yes" }]',
      problems: [
        'ledgers[0].name: Invalid value: "Host_Names": must be lowercase letters, digits and "-" (it is part of Redis keys)',
        'ledgers[0].kinds[0]: Invalid value: "ingresses": must be Kind (core group), group/Kind or *, e.g. networking.k8s.io/Ingress',
        'ledgers[0].annotation: Invalid value: "not valid": must be an annotation key ([prefix/]name)',
        'ledgers[0].scope: Unsupported value: "Global": supported values: "Cluster", "Namespace"',
        'ledgers[0].lowercase: Invalid value: "yes": must be true or false',
      ],
    },
    {
      name: 'an empty scope, answered with the supported values',
      yaml: 'ledgers: [{ name: slots, kinds: ["*"], annotation: a/b, scope: "" }]',
      problems: ['ledgers[0].scope: Unsupported value: "": supported values: "Cluster", "Namespace"'],
    },
    {
      name: 'missing fields',
      yaml: 'ledgers: [{ scope: Cluster }]',
      problems: [
        'ledgers[0].name: Required value',
        'ledgers[0].kinds: Required value',
        'ledgers[0].annotation: Required value',
      ],
    },
    {
      name: 'a TTL shorter than a minute',
      yaml: 'pendingTtlSeconds: 5\nledgers: [{ name: a, kinds: [Pod], annotation: a }]',
      problems: [
        'pendingTtlSeconds: Invalid value: 5: must be a whole number of seconds, at least 60 (longer than any admission call)',
      ],
    },
    {
      name: 'duplicate ledger names',
      yaml: 'ledgers: [{ name: a, kinds: [Pod], annotation: a }, { name: a, kinds: [Pod], annotation: b }]',
      problems: ['ledgers[1].name: Invalid value: "a": must be unique'],
    },
  ];
  for (const c of invalid) {
    it(`refuses ${c.name}, naming the field`, () => {
      try {
        parseLedgerConfig(c.yaml, 'bad.yaml');
        expect.unreachable('configuration was accepted');
      } catch (error) {
        expect(error).toBeInstanceOf(PluginConfigError);
        expect((error as PluginConfigError).problems).toEqual(c.problems);
      }
    });
  }
});
