import { describe, expect, it } from 'vitest';
import {
  badRequestStatus,
  buildDenialStatus,
  callingFailureStatus,
  dryRunUnsupportedStatus,
  forbiddenStatus,
  formatAggregate,
  internalErrorStatus,
  modificationNotSupportedStatus,
  namespaceNotFoundStatus,
  notFoundStatus,
  timeoutStatus,
} from './status.js';
import type { Status } from '../types/review.js';

describe('buildDenialStatus (statuserror.go ToStatusErr)', () => {
  const cases: Array<{ name: string; result: Status | undefined; want: Status }> = [
    {
      name: 'no status at all',
      result: undefined,
      want: {
        status: 'Failure',
        code: 400,
        message: 'admission webhook "h.example.com" denied the request without explanation',
      },
    },
    {
      name: 'message wins over reason',
      result: { message: 'no pods on Sunday', reason: 'Sunday', code: 403 },
      want: {
        message: 'admission webhook "h.example.com" denied the request: no pods on Sunday',
        reason: 'Sunday',
        code: 403,
        status: 'Failure',
      },
    },
    {
      name: 'reason used when there is no message',
      result: { reason: 'Sunday' },
      want: {
        reason: 'Sunday',
        code: 400,
        status: 'Failure',
        message: 'admission webhook "h.example.com" denied the request: Sunday',
      },
    },
    {
      name: 'code below 400 becomes 400, Success becomes Failure',
      result: { code: 200, status: 'Success', message: 'ok?' },
      want: { code: 400, status: 'Failure', message: 'admission webhook "h.example.com" denied the request: ok?' },
    },
    {
      name: 'code 0 becomes 400',
      result: { code: 0 },
      want: {
        code: 400,
        status: 'Failure',
        message: 'admission webhook "h.example.com" denied the request without explanation',
      },
    },
    {
      name: 'codes of 400 and more, custom status values and details are kept',
      result: { code: 500, status: 'custom', details: { causes: [{ field: 'spec' }] }, message: 'm' },
      want: {
        code: 500,
        status: 'custom',
        details: { causes: [{ field: 'spec' }] },
        message: 'admission webhook "h.example.com" denied the request: m',
      },
    },
  ];
  it.each(cases)('$name', ({ result, want }) => {
    expect(buildDenialStatus('h.example.com', result)).toEqual(want);
  });

  it('does not modify the hook status it is given', () => {
    const given: Status = { code: 200, message: 'x' };
    buildDenialStatus('h.example.com', given);
    expect(given).toEqual({ code: 200, message: 'x' });
  });

  it('quotes the hook name the Go way', () => {
    expect(buildDenialStatus('we"ird', undefined).message).toBe(
      'admission webhook "we\\"ird" denied the request without explanation',
    );
  });
});

describe('the other statuses, field by field', () => {
  const cases: Array<{ name: string; got: Status; want: Status }> = [
    {
      name: 'internalErrorStatus',
      got: internalErrorStatus('boom'),
      want: {
        status: 'Failure',
        message: 'Internal error occurred: boom',
        reason: 'InternalError',
        details: { causes: [{ message: 'boom' }] },
        code: 500,
      },
    },
    {
      name: 'callingFailureStatus',
      got: callingFailureStatus('h.example.com', {
        message: 'received invalid webhook response: webhook response was absent',
      }),
      want: {
        status: 'Failure',
        message:
          'Internal error occurred: failed calling webhook "h.example.com": received invalid webhook response: webhook response was absent',
        reason: 'InternalError',
        details: {
          causes: [
            {
              message:
                'failed calling webhook "h.example.com": received invalid webhook response: webhook response was absent',
            },
          ],
        },
        code: 500,
      },
    },
    {
      name: 'callingFailureStatus without a reason',
      got: callingFailureStatus('h.example.com', { message: '' }),
      want: {
        status: 'Failure',
        message: 'Internal error occurred: failed calling webhook "h.example.com"; no further details available',
        reason: 'InternalError',
        details: { causes: [{ message: 'failed calling webhook "h.example.com"; no further details available' }] },
        code: 500,
      },
    },
    {
      name: 'dryRunUnsupportedStatus',
      got: dryRunUnsupportedStatus('h.example.com'),
      want: {
        status: 'Failure',
        message: 'admission webhook "h.example.com" does not support dry run',
        reason: 'BadRequest',
        code: 400,
      },
    },
    {
      name: 'badRequestStatus',
      got: badRequestStatus('nope'),
      want: { status: 'Failure', message: 'nope', reason: 'BadRequest', code: 400 },
    },
    {
      name: 'timeoutStatus',
      got: timeoutStatus(),
      want: {
        status: 'Failure',
        message: 'Timeout: request did not complete within requested timeout',
        reason: 'Timeout',
        details: {},
        code: 504,
      },
    },
    {
      name: 'namespaceNotFoundStatus',
      got: namespaceNotFoundStatus('team-a'),
      want: {
        status: 'Failure',
        message: 'namespaces "team-a" not found',
        reason: 'NotFound',
        details: { name: 'team-a', kind: 'namespaces' },
        code: 404,
      },
    },
    {
      name: 'notFoundStatus with a group',
      got: notFoundStatus({ group: 'apps', resource: 'deployments' }, 'web'),
      want: {
        status: 'Failure',
        message: 'deployments.apps "web" not found',
        reason: 'NotFound',
        details: { name: 'web', group: 'apps', kind: 'deployments' },
        code: 404,
      },
    },
    {
      name: 'forbiddenStatus with a name, core group',
      got: forbiddenStatus(
        { group: '', resource: 'pods' },
        'my-pod',
        "expression 'x' resulted in error: no such key: y",
      ),
      want: {
        status: 'Failure',
        message: `pods "my-pod" is forbidden: expression 'x' resulted in error: no such key: y`,
        reason: 'Forbidden',
        details: { name: 'my-pod', kind: 'pods' },
        code: 403,
      },
    },
    {
      name: 'forbiddenStatus without a name, other group',
      got: forbiddenStatus({ group: 'apps', resource: 'deployments' }, '', '[a, b]'),
      want: {
        status: 'Failure',
        message: 'deployments.apps is forbidden: [a, b]',
        reason: 'Forbidden',
        details: { group: 'apps', kind: 'deployments' },
        code: 403,
      },
    },
    {
      name: 'forbiddenStatus without a resource',
      got: forbiddenStatus({ group: '', resource: '' }, '', 'x'),
      want: { status: 'Failure', message: 'forbidden: x', reason: 'Forbidden', details: {}, code: 403 },
    },
    {
      name: 'modificationNotSupportedStatus',
      got: modificationNotSupportedStatus('h.example.com'),
      want: internalErrorStatus(
        'admission webhook "h.example.com" attempted to modify the object, which is not supported for this operation',
      ),
    },
  ];
  it.each(cases)('$name', ({ got, want }) => {
    expect(got).toEqual(want);
  });
});

describe('formatAggregate (utilerrors aggregate)', () => {
  it.each([
    { name: 'one error as-is', errors: ['a'], want: 'a' },
    { name: 'several in brackets', errors: ['a', 'b'], want: '[a, b]' },
    { name: 'duplicates collapse', errors: ['a', 'b', 'a'], want: '[a, b]' },
    { name: 'all the same', errors: ['a', 'a'], want: 'a' },
  ])('$name', ({ errors, want }) => {
    expect(formatAggregate(errors)).toBe(want);
  });
});
