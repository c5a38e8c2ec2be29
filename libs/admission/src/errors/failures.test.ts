import { describe, expect, it } from 'vitest';
import {
  cancelledFailure,
  deadlineExceededFailure,
  describeCall,
  errorText,
  invokerErrorFailure,
  isHookFailureKind,
  noKnownVersionFailure,
  sideEffectsNilFailure,
} from './failures.js';

const url = { kind: 'url', url: 'https://hooks.example.com/validate' } as const;
const service = { kind: 'service', namespace: 'ns', name: 'svc', path: '/v', port: 8443 } as const;
const plugin = { kind: 'plugin', plugin: 'pod-defaults' } as const;

describe('failures raised by the chain', () => {
  it.each([
    {
      name: 'no known review version',
      got: noKnownVersionFailure(),
      want: {
        kind: 'no-known-version',
        code: 400,
        message:
          'could not create admission objects: webhook does not accept known AdmissionReview versions (v1, v1beta1)',
      },
    },
    {
      name: 'sideEffects nil',
      got: sideEffectsNilFailure(),
      want: { kind: 'sideeffects-nil', code: 400, message: 'Webhook SideEffects is nil' },
    },
    {
      name: 'deadline spent (url)',
      got: deadlineExceededFailure({ target: url }),
      want: { kind: 'timeout', code: 503, message: 'failed to call webhook: context deadline exceeded' },
    },
    {
      name: 'cancelled (service)',
      got: cancelledFailure({ target: service }),
      want: { kind: 'transport', code: 503, message: 'failed to call webhook: context canceled' },
    },
    {
      name: 'invoker threw (plugin)',
      got: invokerErrorFailure({ target: plugin }, new Error('socket hang up')),
      want: { kind: 'transport', code: 503, message: 'failed to call webhook: plugin "pod-defaults": socket hang up' },
    },
    {
      name: 'invoker overflowed the stack on a deeply nested object',
      got: invokerErrorFailure({ target: plugin }, new RangeError('Maximum call stack size exceeded')),
      want: {
        kind: 'transport',
        code: 503,
        message:
          'failed to call webhook: plugin "pod-defaults": the object is nested too deeply for the gateway to encode (Maximum call stack size exceeded)',
      },
    },
  ])('$name', ({ got, want }) => {
    expect(got).toEqual(want);
  });

  it('describes every target', () => {
    expect([describeCall(url), describeCall(service), describeCall(plugin)]).toEqual([
      'Post "https://hooks.example.com/validate"',
      'Post "https://svc.ns.svc:8443/v"',
      'plugin "pod-defaults"',
    ]);
  });

  it.each([
    { name: 'Error', thrown: new TypeError('bad'), want: 'bad' },
    { name: 'Error without message', thrown: new RangeError(''), want: 'RangeError' },
    { name: 'string', thrown: 'plain', want: 'plain' },
    { name: 'undefined', thrown: undefined, want: 'undefined' },
    {
      name: 'object whose toString throws',
      thrown: {
        toString() {
          throw new Error('no');
        },
      },
      want: 'unprintable error',
    },
  ])('errorText of $name', ({ thrown, want }) => {
    expect(errorText(thrown)).toBe(want);
  });

  it('knows the failure kinds', () => {
    expect(isHookFailureKind('timeout')).toBe(true);
    expect(isHookFailureKind('panic')).toBe(false);
    expect(isHookFailureKind('toString')).toBe(false);
    expect(isHookFailureKind(3)).toBe(false);
  });
});
