import { describe, expect, it } from 'vitest';
import type { HookFailure, HookFailureKind } from '../types/hook-failure.js';
import { decideOnFailure } from './failure-policy.js';

const KINDS: HookFailureKind[] = [
  'transport',
  'timeout',
  'http-status',
  'malformed',
  'invalid-response',
  'undecodable-patch',
  'unsupported-patch-type',
  'no-known-version',
  'sideeffects-nil',
  'client',
];

describe('decideOnFailure', () => {
  it.each(KINDS)('%s fails open under Ignore', (kind) => {
    expect(decideOnFailure('Ignore', { kind, message: 'm', code: 503 }, 'h.example.com')).toEqual({
      action: 'fail-open',
    });
  });

  it.each(KINDS)('%s fails closed with 500 under Fail', (kind) => {
    const failure: HookFailure = { kind, message: 'failed to call webhook: boom', code: 503 };
    expect(decideOnFailure('Fail', failure, 'h.example.com')).toEqual({
      action: 'fail-closed',
      status: {
        status: 'Failure',
        code: 500,
        reason: 'InternalError',
        message: 'Internal error occurred: failed calling webhook "h.example.com": failed to call webhook: boom',
        details: { causes: [{ message: 'failed calling webhook "h.example.com": failed to call webhook: boom' }] },
      },
    });
  });

  it('throws on a kind it does not know (a defect, caught by the type checker first)', () => {
    expect(() => decideOnFailure('Fail', { kind: 'panic' as HookFailureKind, message: '', code: 0 }, 'h')).toThrow(
      /hook failure kind/,
    );
  });
});
