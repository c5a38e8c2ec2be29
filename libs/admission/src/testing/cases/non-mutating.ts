/**
 * Port of the apiserver's NewNonMutatingTestCases (webhook/testing/testcase.go): cases whose hooks
 * return no patch, run by both dispatchers (see convertToMutatingCases).
 *
 * Differences from the Go table, all forced by configuration validation, which the Go table
 * bypasses: webhook names are fully qualified (`disallow` → `disallow.example.com`), rules list all
 * five fields, and sideEffects is set (None under v1; Unknown/Some need a v1beta1 configuration).
 */
import type { LabelSelector } from '../../types/webhook-configuration.js';
import type { ChainCase } from './types.js';

const ns: { readonly runlevel1: LabelSelector } = {
  runlevel1: { matchExpressions: [{ key: 'runlevel', operator: 'In', values: ['1'] }] },
};
const createOnly = [{ operations: ['CREATE' as const], apiGroups: ['*'], apiVersions: ['*'], resources: ['*/*'] }];
const failedOpen = 'failed-open.validating.webhook.admission.k8s.io/round_0_index_';

export const NON_MUTATING_CASES: readonly ChainCase[] = [
  {
    name: 'no match',
    webhooks: [{ name: 'nomatch.example.com', behaviour: 'disallow', rules: createOnly }],
    expect: { allowed: true, annotations: {} },
  },
  {
    name: 'match & allow',
    webhooks: [{ name: 'allow.example.com', behaviour: 'allow' }],
    expect: { allowed: true, annotations: { 'allow.example.com/key1': 'value1' } },
  },
  {
    name: 'match & disallow',
    webhooks: [{ name: 'disallow.example.com', behaviour: 'disallow' }],
    expect: {
      allowed: false,
      statusCode: 403,
      message: 'admission webhook "disallow.example.com" denied the request without explanation',
    },
  },
  {
    name: 'match & disallow ii',
    webhooks: [{ name: 'disallowreason.example.com', behaviour: 'disallowReason' }],
    expect: {
      allowed: false,
      statusCode: 403,
      message: 'admission webhook "disallowreason.example.com" denied the request: you shall not pass',
    },
  },
  {
    name: 'match & disallow & but allowed because namespaceSelector exempt the ns',
    webhooks: [{ name: 'disallow.example.com', behaviour: 'disallow', namespaceSelector: ns.runlevel1 }],
    expect: { allowed: true, invocations: { disallow: 0 } },
  },
  {
    name: 'match & disallow & but allowed because namespaceSelector exempt the ns ii',
    webhooks: [
      {
        name: 'disallow.example.com',
        behaviour: 'disallow',
        namespaceSelector: { matchExpressions: [{ key: 'runlevel', operator: 'NotIn', values: ['0'] }] },
      },
    ],
    expect: { allowed: true, invocations: { disallow: 0 } },
  },
  {
    name: 'match & fail (but allow because fail open)',
    webhooks: [
      { name: 'internalerr-a.example.com', behaviour: 'internalErr', failurePolicy: 'Ignore' },
      { name: 'internalerr-b.example.com', behaviour: 'internalErr', failurePolicy: 'Ignore' },
      { name: 'internalerr-c.example.com', behaviour: 'internalErr', failurePolicy: 'Ignore' },
    ],
    expect: {
      allowed: true,
      annotations: {
        [`${failedOpen}0`]: 'internalerr-a.example.com',
        [`${failedOpen}1`]: 'internalerr-b.example.com',
        [`${failedOpen}2`]: 'internalerr-c.example.com',
      },
    },
  },
  {
    name: 'match & fail (but disallow because fail close on default FailurePolicy)',
    webhooks: [
      { name: 'internalerr-a.example.com', behaviour: 'internalErr' },
      { name: 'internalerr-b.example.com', behaviour: 'internalErr' },
      { name: 'internalerr-c.example.com', behaviour: 'internalErr' },
    ],
    expect: {
      allowed: false,
      statusCode: 500,
      reason: 'InternalError',
      messageContains: 'Internal error occurred: failed calling webhook',
    },
  },
  {
    name: 'match & fail (but fail because fail closed)',
    webhooks: [
      { name: 'internalerr-a.example.com', behaviour: 'internalErr', failurePolicy: 'Fail' },
      { name: 'internalerr-b.example.com', behaviour: 'internalErr', failurePolicy: 'Fail' },
      { name: 'internalerr-c.example.com', behaviour: 'internalErr', failurePolicy: 'Fail' },
    ],
    expect: {
      allowed: false,
      statusCode: 500,
      reason: 'InternalError',
      messageContains:
        'an error on the server ("webhook internal server error") has prevented the request from succeeding',
    },
  },
  {
    name: 'match & allow (url)',
    webhooks: [{ name: 'allow.example.com', behaviour: 'allow', target: 'url' }],
    expect: { allowed: true, annotations: { 'allow.example.com/key1': 'value1' } },
  },
  {
    name: 'match & disallow (url)',
    webhooks: [{ name: 'disallow.example.com', behaviour: 'disallow', target: 'url' }],
    expect: { allowed: false, statusCode: 403, messageContains: 'without explanation' },
  },
  {
    name: 'match & allow (service)',
    webhooks: [{ name: 'allow.example.com', behaviour: 'allow', target: 'service' }],
    expect: { allowed: true, annotations: { 'allow.example.com/key1': 'value1' } },
  },
  {
    name: 'absent response and fail open',
    webhooks: [{ name: 'nilresponse.example.com', behaviour: 'nilResponse', target: 'url', failurePolicy: 'Ignore' }],
    expect: { allowed: true, annotations: { [`${failedOpen}0`]: 'nilresponse.example.com' } },
  },
  {
    name: 'absent response and fail closed',
    webhooks: [{ name: 'nilresponse.example.com', behaviour: 'nilResponse', target: 'url', failurePolicy: 'Fail' }],
    expect: {
      allowed: false,
      statusCode: 500,
      message:
        'Internal error occurred: failed calling webhook "nilresponse.example.com": received invalid webhook response: webhook response was absent',
    },
  },
  {
    name: 'no match dry run',
    configApiVersion: 'v1beta1',
    webhooks: [{ name: 'nomatch.example.com', behaviour: 'allow', rules: createOnly, sideEffects: 'Some' }],
    request: { isDryRun: true },
    expect: { allowed: true, invocations: { allow: 0 } },
  },
  {
    name: 'match dry run side effects Unknown',
    configApiVersion: 'v1beta1',
    webhooks: [{ name: 'allow.example.com', behaviour: 'allow', sideEffects: 'Unknown' }],
    request: { isDryRun: true },
    expect: {
      allowed: false,
      statusCode: 400,
      reason: 'BadRequest',
      message: 'admission webhook "allow.example.com" does not support dry run',
      invocations: { allow: 0 },
    },
  },
  {
    name: 'match dry run side effects None',
    webhooks: [{ name: 'allow.example.com', behaviour: 'allow', sideEffects: 'None' }],
    request: { isDryRun: true },
    expect: { allowed: true, annotations: { 'allow.example.com/key1': 'value1' } },
  },
  {
    name: 'match dry run side effects Some',
    configApiVersion: 'v1beta1',
    webhooks: [{ name: 'allow.example.com', behaviour: 'allow', sideEffects: 'Some' }],
    request: { isDryRun: true },
    expect: { allowed: false, statusCode: 400, messageContains: 'does not support dry run' },
  },
  {
    name: 'match dry run side effects NoneOnDryRun',
    webhooks: [{ name: 'allow.example.com', behaviour: 'allow', sideEffects: 'NoneOnDryRun' }],
    request: { isDryRun: true },
    expect: { allowed: true, annotations: { 'allow.example.com/key1': 'value1' } },
  },
  {
    name: 'illegal annotation format',
    webhooks: [{ name: 'invalidannotation.example.com', behaviour: 'invalidAnnotation', target: 'url' }],
    expect: { allowed: true, annotations: {} },
  },
  {
    name: 'skip webhook whose objectSelector does not match',
    webhooks: [
      { name: 'allow.example.com', behaviour: 'allow' },
      {
        name: 'shouldnotbecalled.example.com',
        behaviour: 'shouldNotBeCalled',
        objectSelector: { matchLabels: { label: 'nonexistent' } },
      },
    ],
    expect: {
      allowed: true,
      annotations: { 'allow.example.com/key1': 'value1' },
      invocations: { shouldNotBeCalled: 0 },
    },
  },
  {
    name: "skip webhook whose objectSelector does not match CRD's labels",
    webhooks: [
      { name: 'allow.example.com', behaviour: 'allow' },
      {
        name: 'shouldnotbecalled.example.com',
        behaviour: 'shouldNotBeCalled',
        objectSelector: { matchLabels: { label: 'nonexistent' } },
      },
    ],
    request: { isCRD: true },
    expect: {
      allowed: true,
      annotations: { 'allow.example.com/key1': 'value1' },
      invocations: { shouldNotBeCalled: 0 },
    },
  },
];
