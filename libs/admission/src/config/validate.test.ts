import { describe, expect, it } from 'vitest';
import { formatFieldError } from '../validation/field-path.js';
import { validateConfiguration, type ValidateOptions } from './validate.js';

type Obj = Record<string, unknown>;
const V1 = 'admissionregistration.k8s.io/v1';
const V1BETA1 = 'admissionregistration.k8s.io/v1beta1';

/** A minimal valid webhook for each version; cases override single fields. */
function webhook(overrides: Obj = {}, version = V1): Obj {
  const base: Obj = {
    name: 'hook.example.com',
    clientConfig: { service: { namespace: 'ns', name: 'svc', path: '/validate' } },
    rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
  };
  if (version === V1) {
    base['sideEffects'] = 'None';
    base['admissionReviewVersions'] = ['v1'];
  }
  return { ...base, ...overrides };
}

function config(
  webhooks: unknown[],
  { version = V1, kind = 'ValidatingWebhookConfiguration', name = 'cfg' } = {},
): Obj {
  return { apiVersion: version, kind, metadata: { name }, webhooks };
}

const errorsOf = (obj: unknown, opts?: ValidateOptions): string[] =>
  validateConfiguration(obj, opts).map(formatFieldError);

const rule = (r: Obj): Obj => ({
  operations: ['CREATE'],
  apiGroups: [''],
  apiVersions: ['v1'],
  resources: ['pods'],
  ...r,
});
const withRule = (r: Obj): Obj => config([webhook({ rules: [rule(r)] })]);
const withClient = (cc: unknown): Obj => config([webhook({ clientConfig: cc })]);

interface Case {
  name: string;
  obj: unknown;
  opts?: ValidateOptions;
  errors: string[];
}

describe('validateConfiguration: shape, apiVersion, kind, metadata', () => {
  const cases: Case[] = [
    { name: 'minimal v1 validating', obj: config([webhook()]), errors: [] },
    { name: 'minimal v1 mutating', obj: config([webhook()], { kind: 'MutatingWebhookConfiguration' }), errors: [] },
    { name: 'minimal v1beta1', obj: config([webhook({}, V1BETA1)], { version: V1BETA1 }), errors: [] },
    {
      name: 'no webhooks at all',
      obj: { apiVersion: V1, kind: 'ValidatingWebhookConfiguration', metadata: { name: 'x' } },
      errors: [],
    },
    { name: 'empty webhooks', obj: config([]), errors: [] },
    {
      name: 'not an object',
      obj: 'hello',
      errors: [
        'Invalid value: "a string": a webhook configuration must be an object with apiVersion, kind, metadata and webhooks',
      ],
    },
    {
      name: 'undefined',
      obj: undefined,
      errors: [
        'Invalid value: "nothing": a webhook configuration must be an object with apiVersion, kind, metadata and webhooks',
      ],
    },
    {
      name: 'null',
      obj: null,
      errors: [
        'Invalid value: "null": a webhook configuration must be an object with apiVersion, kind, metadata and webhooks',
      ],
    },
    {
      name: 'an array',
      obj: [],
      errors: [
        'Invalid value: "a list": a webhook configuration must be an object with apiVersion, kind, metadata and webhooks',
      ],
    },
    {
      name: 'missing apiVersion and kind',
      obj: { metadata: { name: 'x' } },
      errors: [
        'apiVersion: Required value: must be one of admissionregistration.k8s.io/v1, admissionregistration.k8s.io/v1beta1',
        'kind: Required value: must be one of MutatingWebhookConfiguration, ValidatingWebhookConfiguration',
      ],
    },
    {
      name: 'unknown apiVersion',
      obj: { ...config([]), apiVersion: 'admissionregistration.k8s.io/v2' },
      errors: [
        'apiVersion: Unsupported value: "admissionregistration.k8s.io/v2": supported values: "admissionregistration.k8s.io/v1", "admissionregistration.k8s.io/v1beta1"',
      ],
    },
    {
      name: 'wrong kind',
      obj: { ...config([]), kind: 'ValidatingAdmissionPolicy' },
      errors: [
        'kind: Unsupported value: "ValidatingAdmissionPolicy": supported values: "MutatingWebhookConfiguration", "ValidatingWebhookConfiguration"',
      ],
    },
    {
      name: 'missing metadata',
      obj: { apiVersion: V1, kind: 'MutatingWebhookConfiguration' },
      errors: ['metadata.name: Required value: name or generateName is required'],
    },
    {
      name: 'empty name',
      obj: config([], { name: '' }),
      errors: ['metadata.name: Required value: name or generateName is required'],
    },
    {
      name: 'name not a subdomain',
      obj: config([], { name: 'My_Config' }),
      errors: [
        `metadata.name: Invalid value: "My_Config": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      ],
    },
    {
      name: 'name not a string',
      obj: { ...config([]), metadata: { name: 3 } },
      errors: ['metadata.name: Invalid value: 3: must be a string'],
    },
    // The apiserver clears a namespace on this cluster-scoped kind before validating (rest.BeforeCreate).
    {
      name: 'a namespace is ignored',
      obj: { ...config([]), metadata: { name: 'x', namespace: 'default' } },
      errors: [],
    },
    {
      name: 'annotations are measured in bytes',
      obj: { ...config([]), metadata: { name: 'x', annotations: { a: 'é'.repeat(140_000) } } },
      errors: ['metadata.annotations: Too long: may not be more than 262144 bytes'],
    },
    { name: 'empty namespace is fine', obj: { ...config([]), metadata: { name: 'x', namespace: '' } }, errors: [] },
    {
      name: 'bad label value',
      obj: { ...config([]), metadata: { name: 'x', labels: { app: 'a b' } } },
      errors: [
        `metadata.labels: Invalid value: "a b": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
      ],
    },
    {
      name: 'bad annotation key',
      obj: { ...config([]), metadata: { name: 'x', annotations: { 'a b': 'v' } } },
      errors: [
        `metadata.annotations: Invalid value: "a b": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
      ],
    },
    {
      name: 'uppercase annotation keys are fine (checked lower-cased)',
      obj: { ...config([]), metadata: { name: 'x', annotations: { 'Example.COM/Key': 'v' } } },
      errors: [],
    },
    {
      name: 'annotation value not a string',
      obj: { ...config([]), metadata: { name: 'x', annotations: { a: 1 } } },
      errors: ['metadata.annotations[a]: Invalid value: 1: must be a string'],
    },
    {
      name: 'metadata is a string',
      obj: { ...config([]), metadata: 'x' },
      errors: ['metadata: Invalid value: "x": must be an object, got a string'],
    },
    {
      name: 'webhooks is a map',
      obj: { ...config([]), webhooks: { a: 1 } },
      errors: ['webhooks: Invalid value: {"a":1}: must be a list, got an object'],
    },
    {
      name: 'webhook is a string',
      obj: config(['hook']),
      errors: ['webhooks[0]: Invalid value: "hook": must be an object, got a string'],
    },
    {
      name: 'unknown fields are ignored',
      obj: { ...config([webhook({ surprise: true })]), status: {}, extra: 1 },
      errors: [],
    },
  ];
  it.each(cases)('$name', ({ obj, opts, errors }) => expect(errorsOf(obj, opts)).toEqual(errors));
});

describe('validateConfiguration: webhook names', () => {
  const cases: Case[] = [
    { name: 'missing name', obj: config([webhook({ name: undefined })]), errors: ['webhooks[0].name: Required value'] },
    {
      name: 'two segments',
      obj: config([webhook({ name: 'foo.bar' })]),
      errors: [
        'webhooks[0].name: Invalid value: "foo.bar": should be a domain with at least three segments separated by dots',
      ],
    },
    {
      name: 'one segment',
      obj: config([webhook({ name: 'foo' })]),
      errors: [
        'webhooks[0].name: Invalid value: "foo": should be a domain with at least three segments separated by dots',
      ],
    },
    {
      name: 'uppercase',
      obj: config([webhook({ name: 'Hook.Example.com' })]),
      errors: [
        `webhooks[0].name: Invalid value: "Hook.Example.com": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      ],
    },
    {
      name: 'duplicate names in v1',
      obj: config([webhook(), webhook(), webhook()]),
      errors: [
        'webhooks[1].name: Duplicate value: "hook.example.com"',
        'webhooks[2].name: Duplicate value: "hook.example.com"',
      ],
    },
    {
      name: 'duplicate names allowed in v1beta1',
      obj: config([webhook({}, V1BETA1), webhook({}, V1BETA1)], { version: V1BETA1 }),
      errors: [],
    },
    { name: 'distinct names', obj: config([webhook(), webhook({ name: 'other.example.com' })]), errors: [] },
  ];
  it.each(cases)('$name', ({ obj, opts, errors }) => expect(errorsOf(obj, opts)).toEqual(errors));
});

describe('validateConfiguration: rules', () => {
  const p = 'webhooks[0].rules[0]';
  const cases: Case[] = [
    { name: 'no rules is valid', obj: config([webhook({ rules: [] })]), errors: [] },
    { name: 'rules absent is valid', obj: config([webhook({ rules: undefined })]), errors: [] },
    {
      name: 'rules not a list',
      obj: config([webhook({ rules: {} })]),
      errors: ['webhooks[0].rules: Invalid value: {}: must be a list, got an object'],
    },
    {
      name: 'rule not an object',
      obj: config([webhook({ rules: ['pods'] })]),
      errors: [`${p}: Invalid value: "pods": must be an object, got a string`],
    },
    {
      name: 'all wildcards',
      obj: withRule({ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*/*'] }),
      errors: [],
    },
    {
      name: 'all four operations',
      obj: withRule({ operations: ['CREATE', 'UPDATE', 'DELETE', 'CONNECT'] }),
      errors: [],
    },
    { name: 'empty operations', obj: withRule({ operations: [] }), errors: [`${p}.operations: Required value`] },
    {
      name: 'missing operations',
      obj: withRule({ operations: undefined }),
      errors: [`${p}.operations: Required value`],
    },
    {
      name: '* with other operations',
      obj: withRule({ operations: ['*', 'CREATE'] }),
      errors: [
        `${p}.operations: Invalid value: []admissionregistration.OperationType{"*", "CREATE"}: if '*' is present, must not specify other operations`,
      ],
    },
    {
      name: 'unknown operation',
      obj: withRule({ operations: ['CREATE', 'PATCH'] }),
      errors: [
        `${p}.operations[1]: Unsupported value: "PATCH": supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE"`,
      ],
    },
    {
      name: 'lowercase operation',
      obj: withRule({ operations: ['create'] }),
      errors: [
        `${p}.operations[0]: Unsupported value: "create": supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE"`,
      ],
    },
    {
      name: 'operation not a string',
      obj: withRule({ operations: [1] }),
      errors: [`${p}.operations[0]: Invalid value: 1: must be a string, got a number`],
    },
    {
      name: 'operations not a list',
      obj: withRule({ operations: 'CREATE' }),
      errors: [`${p}.operations: Invalid value: "CREATE": must be a list of strings, got a string`],
    },
    { name: 'empty apiGroups', obj: withRule({ apiGroups: [] }), errors: [`${p}.apiGroups: Required value`] },
    { name: 'core group "" is fine', obj: withRule({ apiGroups: ['', 'apps'] }), errors: [] },
    {
      name: '* with other groups',
      obj: withRule({ apiGroups: ['*', 'apps'] }),
      errors: [
        `${p}.apiGroups: Invalid value: []string{"*", "apps"}: if '*' is present, must not specify other API groups`,
      ],
    },
    { name: 'empty apiVersions', obj: withRule({ apiVersions: [] }), errors: [`${p}.apiVersions: Required value`] },
    {
      name: '* with other versions',
      obj: withRule({ apiVersions: ['v1', '*'] }),
      errors: [
        `${p}.apiVersions: Invalid value: []string{"v1", "*"}: if '*' is present, must not specify other API versions`,
      ],
    },
    {
      name: 'empty version entry',
      obj: withRule({ apiVersions: ['v1', ''] }),
      errors: [`${p}.apiVersions[1]: Required value`],
    },
    { name: 'empty resources', obj: withRule({ resources: [] }), errors: [`${p}.resources: Required value`] },
    {
      name: 'empty resource entry',
      obj: withRule({ resources: ['pods', ''] }),
      errors: [`${p}.resources[1]: Required value`],
    },
    { name: '*/* alone', obj: withRule({ resources: ['*/*'] }), errors: [] },
    {
      name: '*/* with others',
      obj: withRule({ resources: ['*/*', 'pods'] }),
      errors: [
        `${p}.resources: Invalid value: []string{"*/*", "pods"}: if '*/*' is present, must not specify other resources`,
      ],
    },
    {
      name: '* with a plain resource after it',
      obj: withRule({ resources: ['*', 'pods'] }),
      errors: [
        `${p}.resources: Invalid value: []string{"*", "pods"}: if '*' is present, must not specify other resources without subresources`,
      ],
    },
    // The apiserver only remembers the last plain entry; Hookgate accepts what it accepts.
    {
      name: '* after a plain resource (accepted like the apiserver)',
      obj: withRule({ resources: ['pods', '*'] }),
      errors: [],
    },
    { name: '* with subresource forms', obj: withRule({ resources: ['*', 'pods/status', '*/scale'] }), errors: [] },
    { name: 'pods/* alone', obj: withRule({ resources: ['pods/*'] }), errors: [] },
    { name: 'pods/* and pods', obj: withRule({ resources: ['pods/*', 'pods'] }), errors: [] },
    {
      name: 'pods/* then pods/status',
      obj: withRule({ resources: ['pods/*', 'pods/status'] }),
      errors: [`${p}.resources[1]: Invalid value: "pods/status": if 'pods/*' is present, must not specify pods/status`],
    },
    {
      name: 'pods/status then pods/* (order matters)',
      obj: withRule({ resources: ['pods/status', 'pods/*'] }),
      errors: [],
    },
    {
      name: '*/status then pods/status',
      obj: withRule({ resources: ['*/status', 'pods/status'] }),
      errors: [
        `${p}.resources[1]: Invalid value: "pods/status": if '*/status' is present, must not specify pods/status`,
      ],
    },
    {
      name: '*/* then pods/status',
      obj: withRule({ resources: ['*/*', 'pods/status'] }),
      errors: [
        `${p}.resources: Invalid value: []string{"*/*", "pods/status"}: if '*/*' is present, must not specify other resources`,
      ],
    },
    {
      name: 'deployments/scale and */status together',
      obj: withRule({ resources: ['deployments/scale', '*/status'] }),
      errors: [],
    },
    { name: 'scope *', obj: withRule({ scope: '*' }), errors: [] },
    { name: 'scope Namespaced', obj: withRule({ scope: 'Namespaced' }), errors: [] },
    { name: 'scope Cluster', obj: withRule({ scope: 'Cluster' }), errors: [] },
    { name: 'scope null is absent', obj: withRule({ scope: null }), errors: [] },
    {
      name: 'bad scope',
      obj: withRule({ scope: 'namespaced' }),
      errors: [`${p}.scope: Unsupported value: "namespaced": supported values: "*", "Cluster", "Namespaced"`],
    },
    {
      name: 'all problems of a rule at once',
      obj: withRule({ operations: [], apiGroups: [], apiVersions: [], resources: [], scope: 'x' }),
      errors: [
        `${p}.operations: Required value`,
        `${p}.apiGroups: Required value`,
        `${p}.apiVersions: Required value`,
        `${p}.resources: Required value`,
        `${p}.scope: Unsupported value: "x": supported values: "*", "Cluster", "Namespaced"`,
      ],
    },
    {
      name: 'second rule of second webhook',
      obj: config([webhook(), webhook({ name: 'b.example.com', rules: [rule({}), rule({ apiVersions: [] })] })]),
      errors: ['webhooks[1].rules[1].apiVersions: Required value'],
    },
  ];
  it.each(cases)('$name', ({ obj, opts, errors }) => expect(errorsOf(obj, opts)).toEqual(errors));
});

describe('validateConfiguration: policies, sideEffects, timeouts, review versions', () => {
  const w = 'webhooks[0]';
  const mutating = (o: Obj, version = V1) =>
    config([webhook(o, version)], { kind: 'MutatingWebhookConfiguration', version });
  const validating = (o: Obj, version = V1) => config([webhook(o, version)], { version });
  const cases: Case[] = [
    { name: 'failurePolicy Fail', obj: validating({ failurePolicy: 'Fail' }), errors: [] },
    { name: 'failurePolicy Ignore', obj: validating({ failurePolicy: 'Ignore' }), errors: [] },
    {
      name: 'bad failurePolicy',
      obj: validating({ failurePolicy: 'fail' }),
      errors: [`${w}.failurePolicy: Unsupported value: "fail": supported values: "Fail", "Ignore"`],
    },
    {
      name: 'failurePolicy not a string',
      obj: validating({ failurePolicy: true }),
      errors: [`${w}.failurePolicy: Unsupported value: true: supported values: "Fail", "Ignore"`],
    },
    { name: 'matchPolicy Exact', obj: validating({ matchPolicy: 'Exact' }), errors: [] },
    { name: 'matchPolicy Equivalent', obj: validating({ matchPolicy: 'Equivalent' }), errors: [] },
    {
      name: 'bad matchPolicy',
      obj: validating({ matchPolicy: 'Fuzzy' }),
      errors: [`${w}.matchPolicy: Unsupported value: "Fuzzy": supported values: "Equivalent", "Exact"`],
    },
    { name: 'reinvocationPolicy IfNeeded', obj: mutating({ reinvocationPolicy: 'IfNeeded' }), errors: [] },
    { name: 'reinvocationPolicy Never', obj: mutating({ reinvocationPolicy: 'Never' }), errors: [] },
    {
      name: 'bad reinvocationPolicy',
      obj: mutating({ reinvocationPolicy: 'Always' }),
      errors: [`${w}.reinvocationPolicy: Unsupported value: "Always": supported values: "IfNeeded", "Never"`],
    },
    {
      name: 'reinvocationPolicy ignored on validating (unknown field there)',
      obj: validating({ reinvocationPolicy: 'Always' }),
      errors: [],
    },
    { name: 'v1 sideEffects None', obj: validating({ sideEffects: 'None' }), errors: [] },
    { name: 'v1 sideEffects NoneOnDryRun', obj: validating({ sideEffects: 'NoneOnDryRun' }), errors: [] },
    {
      name: 'v1 sideEffects missing',
      obj: validating({ sideEffects: undefined }),
      errors: [`${w}.sideEffects: Required value: must specify one of None, NoneOnDryRun`],
    },
    {
      name: 'v1 sideEffects null',
      obj: validating({ sideEffects: null }),
      errors: [`${w}.sideEffects: Required value: must specify one of None, NoneOnDryRun`],
    },
    {
      name: 'v1 sideEffects Some',
      obj: validating({ sideEffects: 'Some' }),
      errors: [`${w}.sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"`],
    },
    {
      name: 'v1 sideEffects Unknown',
      obj: validating({ sideEffects: 'Unknown' }),
      errors: [`${w}.sideEffects: Unsupported value: "Unknown": supported values: "None", "NoneOnDryRun"`],
    },
    { name: 'v1beta1 sideEffects missing (defaults to Unknown)', obj: validating({}, V1BETA1), errors: [] },
    { name: 'v1beta1 sideEffects Some', obj: validating({ sideEffects: 'Some' }, V1BETA1), errors: [] },
    { name: 'v1beta1 sideEffects Unknown', obj: validating({ sideEffects: 'Unknown' }, V1BETA1), errors: [] },
    { name: 'v1beta1 sideEffects NoneOnDryRun', obj: validating({ sideEffects: 'NoneOnDryRun' }, V1BETA1), errors: [] },
    {
      name: 'v1beta1 bad sideEffects',
      obj: validating({ sideEffects: 'Maybe' }, V1BETA1),
      errors: [
        `${w}.sideEffects: Unsupported value: "Maybe": supported values: "None", "NoneOnDryRun", "Some", "Unknown"`,
      ],
    },
    { name: 'timeout 1', obj: validating({ timeoutSeconds: 1 }), errors: [] },
    { name: 'timeout 30', obj: validating({ timeoutSeconds: 30 }), errors: [] },
    {
      name: 'timeout 0',
      obj: validating({ timeoutSeconds: 0 }),
      errors: [`${w}.timeoutSeconds: Invalid value: 0: the timeout value must be between 1 and 30 seconds`],
    },
    {
      name: 'timeout 31',
      obj: validating({ timeoutSeconds: 31 }),
      errors: [`${w}.timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds`],
    },
    {
      name: 'timeout negative',
      obj: validating({ timeoutSeconds: -5 }),
      errors: [`${w}.timeoutSeconds: Invalid value: -5: the timeout value must be between 1 and 30 seconds`],
    },
    {
      name: 'timeout fractional',
      obj: validating({ timeoutSeconds: 1.5 }),
      errors: [`${w}.timeoutSeconds: Invalid value: 1.5: must be an integer`],
    },
    {
      name: 'timeout as string',
      obj: validating({ timeoutSeconds: '10' }),
      errors: [`${w}.timeoutSeconds: Invalid value: "10": must be an integer`],
    },
    { name: 'v1 review versions v1', obj: validating({ admissionReviewVersions: ['v1'] }), errors: [] },
    { name: 'v1 review versions both', obj: validating({ admissionReviewVersions: ['v1beta1', 'v1'] }), errors: [] },
    {
      name: 'v1 review versions with an unknown extra',
      obj: validating({ admissionReviewVersions: ['v2', 'v1'] }),
      errors: [],
    },
    {
      name: 'v1 review versions missing',
      obj: validating({ admissionReviewVersions: undefined }),
      errors: [`${w}.admissionReviewVersions: Required value: must specify one of v1, v1beta1`],
    },
    {
      name: 'v1 review versions empty',
      obj: validating({ admissionReviewVersions: [] }),
      errors: [`${w}.admissionReviewVersions: Required value: must specify one of v1, v1beta1`],
    },
    {
      name: 'v1 review versions none known',
      obj: validating({ admissionReviewVersions: ['v2'] }),
      errors: [`${w}.admissionReviewVersions: Invalid value: []string{"v2"}: must include at least one of v1, v1beta1`],
    },
    {
      name: 'v1 review versions duplicate',
      obj: validating({ admissionReviewVersions: ['v1', 'v1'] }),
      errors: [`${w}.admissionReviewVersions[1]: Invalid value: "v1": duplicate version`],
    },
    {
      name: 'v1 review version not a DNS-1035 label',
      obj: validating({ admissionReviewVersions: ['v1', 'V2'] }),
      errors: [
        `${w}.admissionReviewVersions[1]: Invalid value: "V2": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
      ],
    },
    { name: 'v1beta1 review versions missing (defaults to v1beta1)', obj: validating({}, V1BETA1), errors: [] },
    {
      name: 'v1beta1 review versions empty (defaults to v1beta1)',
      obj: validating({ admissionReviewVersions: [] }, V1BETA1),
      errors: [],
    },
    {
      name: 'v1beta1 review versions none known',
      obj: validating({ admissionReviewVersions: ['v3'] }, V1BETA1),
      errors: [`${w}.admissionReviewVersions: Invalid value: []string{"v3"}: must include at least one of v1, v1beta1`],
    },
    {
      name: 'review versions not a list',
      obj: validating({ admissionReviewVersions: 'v1' }),
      errors: [`${w}.admissionReviewVersions: Invalid value: "v1": must be a list of strings, got a string`],
    },
  ];
  it.each(cases)('$name', ({ obj, opts, errors }) => expect(errorsOf(obj, opts)).toEqual(errors));
});

describe('validateConfiguration: selectors', () => {
  const w = 'webhooks[0]';
  const cases: Case[] = [
    { name: 'empty selectors', obj: config([webhook({ namespaceSelector: {}, objectSelector: {} })]), errors: [] },
    { name: 'null selectors', obj: config([webhook({ namespaceSelector: null, objectSelector: null })]), errors: [] },
    {
      name: 'valid expressions',
      obj: config([
        webhook({
          namespaceSelector: {
            matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['kube-system'] }],
          },
        }),
      ]),
      errors: [],
    },
    {
      name: 'namespaceSelector In without values',
      obj: config([webhook({ namespaceSelector: { matchExpressions: [{ key: 'a', operator: 'In' }] } })]),
      errors: [
        `${w}.namespaceSelector.matchExpressions[0].values: Required value: must be specified when \`operator\` is 'In' or 'NotIn'`,
      ],
    },
    {
      name: 'objectSelector bad operator',
      obj: config([webhook({ objectSelector: { matchExpressions: [{ key: 'a', operator: 'Has' }] } })]),
      errors: [`${w}.objectSelector.matchExpressions[0].operator: Invalid value: "Has": not a valid selector operator`],
    },
    {
      name: 'objectSelector Exists with values',
      obj: config([
        webhook({ objectSelector: { matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x'] }] } }),
      ]),
      errors: [
        `${w}.objectSelector.matchExpressions[0].values: Forbidden: may not be specified when \`operator\` is 'Exists' or 'DoesNotExist'`,
      ],
    },
  ];
  it.each(cases)('$name', ({ obj, opts, errors }) => expect(errorsOf(obj, opts)).toEqual(errors));
});

describe('validateConfiguration: clientConfig', () => {
  const cc = 'webhooks[0].clientConfig';
  const form = '; desired format: https://host[/path]';
  const cases: Case[] = [
    { name: 'https url', obj: withClient({ url: 'https://hook.example.com/validate' }), errors: [] },
    { name: 'https url with port and IP', obj: withClient({ url: 'https://127.0.0.1:8443' }), errors: [] },
    { name: 'https url with IPv6 host', obj: withClient({ url: 'https://[::1]:8443/x' }), errors: [] },
    {
      name: 'missing clientConfig',
      obj: config([webhook({ clientConfig: undefined })]),
      errors: [`${cc}: Required value: exactly one of url or service is required`],
    },
    {
      name: 'empty clientConfig',
      obj: withClient({}),
      errors: [`${cc}: Required value: exactly one of url or service is required`],
    },
    {
      name: 'caBundle only',
      obj: withClient({ caBundle: 'Cg==' }),
      errors: [`${cc}: Required value: exactly one of url or service is required`],
    },
    {
      name: 'url and service',
      obj: withClient({ url: 'https://a.example.com', service: { name: 's', namespace: 'n' } }),
      errors: [`${cc}: Required value: exactly one of url or service is required`],
    },
    {
      name: 'url and plugin',
      obj: withClient({ url: 'https://a.example.com', plugin: 'p' }),
      errors: [`${cc}: Required value: exactly one of url, service or plugin is required`],
    },
    {
      name: 'clientConfig not an object',
      obj: withClient('https://x'),
      errors: [`${cc}: Invalid value: "https://x": must be an object, got a string`],
    },
    {
      name: 'http url',
      obj: withClient({ url: 'http://hook.example.com/validate' }),
      errors: [`${cc}.url: Invalid value: "http": 'https' is the only allowed URL scheme${form}`],
    },
    {
      name: 'http loopback without the option',
      obj: withClient({ url: 'http://127.0.0.1:9000/hook' }),
      errors: [`${cc}.url: Invalid value: "http": 'https' is the only allowed URL scheme${form}`],
    },
    {
      name: 'http 127.0.0.1 with allowHttpLoopback',
      obj: withClient({ url: 'http://127.0.0.1:9000/hook' }),
      opts: { allowHttpLoopback: true },
      errors: [],
    },
    {
      name: 'http 127.1.2.3 with allowHttpLoopback',
      obj: withClient({ url: 'http://127.1.2.3/hook' }),
      opts: { allowHttpLoopback: true },
      errors: [],
    },
    {
      name: 'http localhost with allowHttpLoopback',
      obj: withClient({ url: 'http://localhost:8080/hook' }),
      opts: { allowHttpLoopback: true },
      errors: [],
    },
    {
      name: 'http [::1] with allowHttpLoopback',
      obj: withClient({ url: 'http://[::1]:8080/hook' }),
      opts: { allowHttpLoopback: true },
      errors: [],
    },
    {
      name: 'http non-loopback with allowHttpLoopback',
      obj: withClient({ url: 'http://10.0.0.1/hook' }),
      opts: { allowHttpLoopback: true },
      errors: [`${cc}.url: Invalid value: "http": 'https' is the only allowed URL scheme${form}`],
    },
    {
      name: 'http lookalike host with allowHttpLoopback',
      obj: withClient({ url: 'http://127.0.0.1.evil.com/hook' }),
      opts: { allowHttpLoopback: true },
      errors: [`${cc}.url: Invalid value: "http": 'https' is the only allowed URL scheme${form}`],
    },
    {
      name: 'not a URL at all',
      obj: withClient({ url: 'wrong url pattern' }),
      errors: [
        `${cc}.url: Invalid value: "": 'https' is the only allowed URL scheme${form}`,
        `${cc}.url: Invalid value: "": host must be specified${form}`,
      ],
    },
    {
      name: 'https without host',
      obj: withClient({ url: 'https:///path' }),
      errors: [`${cc}.url: Invalid value: "": host must be specified${form}`],
    },
    {
      name: 'user info',
      obj: withClient({ url: 'https://user:pw@hook.example.com/' }),
      errors: [`${cc}.url: Invalid value: "user:pw": user information is not permitted in the URL`],
    },
    {
      name: 'fragment',
      obj: withClient({ url: 'https://hook.example.com/x#frag' }),
      errors: [`${cc}.url: Invalid value: "frag": fragments are not permitted in the URL`],
    },
    {
      name: 'query',
      obj: withClient({ url: 'https://hook.example.com/x?a=b' }),
      errors: [`${cc}.url: Invalid value: "a=b": query parameters are not permitted in the URL`],
    },
    {
      name: 'query and fragment together',
      obj: withClient({ url: 'https://hook.example.com/x?a=b#c' }),
      errors: [
        `${cc}.url: Invalid value: "c": fragments are not permitted in the URL`,
        `${cc}.url: Invalid value: "a=b": query parameters are not permitted in the URL`,
      ],
    },
    {
      name: 'missing scheme',
      obj: withClient({ url: '://x' }),
      errors: [`${cc}.url: Required value: url must be a valid URL: parse "://x": missing protocol scheme${form}`],
    },
    {
      name: 'bad port',
      obj: withClient({ url: 'https://hook.example.com:abc/' }),
      errors: [
        `${cc}.url: Required value: url must be a valid URL: parse "https://hook.example.com:abc/": invalid port ":abc" after host${form}`,
      ],
    },
    {
      name: 'control character',
      obj: withClient({ url: 'https://hook.example.com/\n' }),
      errors: [
        `${cc}.url: Required value: url must be a valid URL: parse "https://hook.example.com/\\n": net/url: invalid control character in URL${form}`,
      ],
    },
    {
      name: 'a bad escape in the path',
      obj: withClient({ url: 'https://hooks.example.com/%zz' }),
      errors: [
        `${cc}.url: Required value: url must be a valid URL: parse "https://hooks.example.com/%zz": invalid URL escape "%zz"${form}`,
      ],
    },
    {
      name: 'an escaped ASCII byte in the host',
      obj: withClient({ url: 'https://a%41.example.com/validate' }),
      errors: [
        `${cc}.url: Required value: url must be a valid URL: parse "https://a%41.example.com/validate": invalid URL escape "%41"${form}`,
      ],
    },
    { name: 'a non-ASCII host', obj: withClient({ url: 'https://bücher.example/validate' }), errors: [] },
    {
      name: 'the quoted URL leaves the fragment out, as url.Parse does',
      obj: withClient({ url: 'https://a.com:port/x#frag' }),
      errors: [
        `${cc}.url: Required value: url must be a valid URL: parse "https://a.com:port/x": invalid port ":port" after host${form}`,
      ],
    },
    {
      name: 'no scheme and a colon in the first segment',
      obj: withClient({ url: '1https://a.com/x' }),
      errors: [
        `${cc}.url: Required value: url must be a valid URL: parse "1https://a.com/x": first path segment in URL cannot contain colon${form}`,
      ],
    },
    {
      name: 'url not a string',
      obj: withClient({ url: 5 }),
      errors: [`${cc}.url: Invalid value: 5: must be a string, got a number`],
    },
    { name: 'service with defaults', obj: withClient({ service: { name: 's', namespace: 'n' } }), errors: [] },
    {
      name: 'service with port and root path',
      obj: withClient({ service: { name: 's', namespace: 'n', port: 8443, path: '/' } }),
      errors: [],
    },
    {
      name: 'service path with segments',
      obj: withClient({ service: { name: 's', namespace: 'n', path: '/v1/admit-label/x.y' } }),
      errors: [],
    },
    {
      name: 'service path trailing slash',
      obj: withClient({ service: { name: 's', namespace: 'n', path: '/validate/' } }),
      errors: [],
    },
    {
      name: 'service without name and namespace',
      obj: withClient({ service: {} }),
      errors: [
        `${cc}.service.name: Required value: service name is required`,
        `${cc}.service.namespace: Required value: service namespace is required`,
      ],
    },
    {
      name: 'service port 0',
      obj: withClient({ service: { name: 's', namespace: 'n', port: 0 } }),
      errors: [`${cc}.service.port: Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive`],
    },
    {
      name: 'service port 65536',
      obj: withClient({ service: { name: 's', namespace: 'n', port: 65536 } }),
      errors: [`${cc}.service.port: Invalid value: 65536: port is not valid: must be between 1 and 65535, inclusive`],
    },
    {
      name: 'service port as string',
      obj: withClient({ service: { name: 's', namespace: 'n', port: '443' } }),
      errors: [`${cc}.service.port: Invalid value: "443": must be an integer`],
    },
    {
      name: 'service path //',
      obj: withClient({ service: { name: 's', namespace: 'n', path: '//' } }),
      errors: [`${cc}.service.path: Invalid value: "//": segment[0] may not be empty`],
    },
    {
      name: 'service path without leading slash',
      obj: withClient({ service: { name: 's', namespace: 'n', path: 'validate' } }),
      errors: [`${cc}.service.path: Invalid value: "validate": must start with a '/'`],
    },
    {
      name: 'service path empty segment',
      obj: withClient({ service: { name: 's', namespace: 'n', path: '/a//b' } }),
      errors: [`${cc}.service.path: Invalid value: "/a//b": segment[1] may not be empty`],
    },
    {
      name: 'service path uppercase segment',
      obj: withClient({ service: { name: 's', namespace: 'n', path: '/Validate' } }),
      errors: [
        `${cc}.service.path: Invalid value: "/Validate": segment[0]: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      ],
    },
    {
      name: 'service not an object',
      obj: withClient({ service: 'svc' }),
      errors: [`${cc}.service: Invalid value: "svc": must be an object, got a string`],
    },
    { name: 'plugin', obj: withClient({ plugin: 'opa' }), errors: [] },
    {
      name: 'known plugin',
      obj: withClient({ plugin: 'opa' }),
      opts: { knownPlugins: new Set(['opa', 'cosign']) },
      errors: [],
    },
    {
      name: 'unknown plugin',
      obj: withClient({ plugin: 'kyverno' }),
      opts: { knownPlugins: new Set(['opa', 'cosign']) },
      errors: [`${cc}.plugin: Unsupported value: "kyverno": supported values: "cosign", "opa"`],
    },
    {
      name: 'a plugin when none is declared',
      obj: withClient({ plugin: 'kyverno' }),
      opts: { knownPlugins: new Set<string>() },
      errors: [`${cc}.plugin: Invalid value: "kyverno": no plugin is declared to serve it`],
    },
    {
      name: 'empty plugin name',
      obj: withClient({ plugin: '' }),
      errors: [`${cc}.plugin: Required value: plugin name is required`],
    },
    {
      name: 'plugin name not a string',
      obj: withClient({ plugin: 1 }),
      errors: [`${cc}.plugin: Invalid value: 1: must be a string, got a number`],
    },
    { name: 'caBundle base64', obj: withClient({ url: 'https://a.example.com', caBundle: 'Cg==' }), errors: [] },
    { name: 'caBundle empty', obj: withClient({ url: 'https://a.example.com', caBundle: '' }), errors: [] },
    {
      name: 'caBundle not base64',
      obj: withClient({ url: 'https://a.example.com', caBundle: '${CA_BUNDLE}' }),
      errors: [`${cc}.caBundle: Invalid value: must be base64-encoded: illegal base64 data at input byte 0`],
    },
    {
      name: 'caBundle not a string',
      obj: withClient({ url: 'https://a.example.com', caBundle: 12 }),
      errors: [`${cc}.caBundle: Invalid value: 12: must be a base64-encoded PEM bundle (a string)`],
    },
  ];
  it.each(cases)('$name', ({ obj, opts, errors }) => expect(errorsOf(obj, opts)).toEqual(errors));
});

describe('validateConfiguration: matchConditions', () => {
  const m = 'webhooks[0].matchConditions';
  const withConditions = (conditions: unknown): Obj => config([webhook({ matchConditions: conditions })]);
  const conditions = (n: number): Obj[] => Array.from({ length: n }, (_, i) => ({ name: `c${i}`, expression: 'true' }));
  const cases: Case[] = [
    { name: 'no conditions', obj: withConditions([]), errors: [] },
    {
      name: 'one condition',
      obj: withConditions([{ name: 'exclude-leases', expression: "request.resource.resource != 'leases'" }]),
      errors: [],
    },
    { name: 'prefixed name', obj: withConditions([{ name: 'example.com/check', expression: 'true' }]), errors: [] },
    { name: '64 conditions', obj: withConditions(conditions(64)), errors: [] },
    {
      name: '65 conditions',
      obj: withConditions(conditions(65)),
      errors: [`${m}: Too many: 65: must have at most 64 items`],
    },
    {
      name: 'missing expression',
      obj: withConditions([{ name: 'a' }]),
      errors: [`${m}[0].expression: Required value`],
    },
    {
      name: 'blank expression',
      obj: withConditions([{ name: 'a', expression: '   ' }]),
      errors: [`${m}[0].expression: Required value`],
    },
    { name: 'missing name', obj: withConditions([{ expression: 'true' }]), errors: [`${m}[0].name: Required value`] },
    {
      name: 'bad name',
      obj: withConditions([{ name: 'not valid!', expression: 'true' }]),
      errors: [
        `${m}[0].name: Invalid value: "not valid!": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
      ],
    },
    {
      name: 'duplicate names',
      obj: withConditions([
        { name: 'a', expression: 'true' },
        { name: 'a', expression: 'false' },
      ]),
      errors: [`${m}[1].name: Duplicate value: "a"`],
    },
    {
      name: 'conditions not a list',
      obj: withConditions({ a: 'true' }),
      errors: [`${m}: Invalid value: {"a":"true"}: must be a list, got an object`],
    },
    {
      name: 'condition not an object',
      obj: withConditions(['true']),
      errors: [`${m}[0]: Invalid value: "true": must be an object, got a string`],
    },
    {
      name: 'expression not a string',
      obj: withConditions([{ name: 'a', expression: true }]),
      errors: [`${m}[0].expression: Invalid value: true: must be a string, got a boolean`],
    },
    // validation_test.go "invalid expression", word for word.
    {
      name: 'unclosed list (upstream)',
      obj: withConditions([{ name: 'webhook.k8s.io', expression: 'object.x in [1, 2, ' }]),
      errors: [
        `${m}[0].expression: Invalid value: "object.x in [1, 2,": compilation failed: ERROR: <input>:1:19: Syntax error: missing ']' at '<EOF>'`,
      ],
    },
  ];
  it.each(cases)('$name', ({ obj, opts, errors }) => expect(errorsOf(obj, opts)).toEqual(errors));

  it.each([
    { name: 'syntax error', expression: 'object.metadata.name ==' },
    { name: 'not a bool', expression: "'a string'" },
    { name: 'unknown variable', expression: 'nonexistent.field == 1' },
  ])('rejects an expression that does not compile to bool: $name', ({ expression }) => {
    const errs = validateConfiguration(withConditions([{ name: 'a', expression }]));
    expect(errs).toHaveLength(1);
    expect(errs[0]).toMatchObject({ type: 'FieldValueInvalid', field: `${m}[0].expression`, badValue: expression });
    expect(errs[0]!.detail).toBeTruthy();
  });

  it('reports the trimmed expression, as the apiserver compiles it', () => {
    const errs = validateConfiguration(withConditions([{ name: 'a', expression: '  1 +  ' }]));
    expect(errs[0]).toMatchObject({ field: `${m}[0].expression`, badValue: '1 +' });
  });
});

describe('validateConfiguration: everything at once', () => {
  it('reports every problem of every webhook in apiserver order', () => {
    const obj = config(
      [
        webhook({
          name: 'bad',
          timeoutSeconds: 99,
          failurePolicy: 'Nope',
          sideEffects: 'Some',
          clientConfig: { url: 'http://x.example.com' },
        }),
        webhook({
          name: 'ok.example.com',
          admissionReviewVersions: [],
          rules: [rule({ operations: ['*', 'CREATE'] })],
        }),
      ],
      { name: 'Bad_Name' },
    );
    expect(validateConfiguration(obj).map((e) => e.field)).toEqual([
      'metadata.name',
      'webhooks[0].name',
      'webhooks[0].failurePolicy',
      'webhooks[0].sideEffects',
      'webhooks[0].timeoutSeconds',
      'webhooks[0].clientConfig.url',
      'webhooks[1].rules[0].operations',
      'webhooks[1].admissionReviewVersions',
    ]);
  });

  it('never throws on odd inputs', () => {
    const odd: unknown[] = [
      undefined,
      0,
      true,
      Symbol('x'),
      () => 1,
      { apiVersion: V1, kind: 'MutatingWebhookConfiguration', metadata: { name: 'x' }, webhooks: [null, 1, [], {}] },
    ];
    for (const o of odd) expect(() => validateConfiguration(o)).not.toThrow();
  });
});
