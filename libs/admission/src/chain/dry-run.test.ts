import { describe, expect, it } from 'vitest';
import type { SideEffectClass } from '../types/webhook-configuration.js';
import { checkDryRun, classifySideEffect } from './dry-run.js';

describe('checkDryRun (§19)', () => {
  it.each<{ sideEffects: SideEffectClass | null; dryRun: boolean; want: string }>([
    { sideEffects: 'None', dryRun: true, want: 'call' },
    { sideEffects: 'NoneOnDryRun', dryRun: true, want: 'call' },
    { sideEffects: 'Unknown', dryRun: true, want: 'refuse' },
    { sideEffects: 'Some', dryRun: true, want: 'refuse' },
    { sideEffects: null, dryRun: true, want: 'failure' },
    { sideEffects: 'Some', dryRun: false, want: 'call' },
    { sideEffects: null, dryRun: false, want: 'call' },
  ])('sideEffects $sideEffects, dryRun $dryRun → $want', ({ sideEffects, dryRun, want }) => {
    expect(checkDryRun({ name: 'h.example.com', sideEffects }, { dryRun }).kind).toBe(want);
  });

  it('words the refusal and the nil failure like the apiserver', () => {
    expect(checkDryRun({ name: 'h.example.com', sideEffects: 'Some' }, { dryRun: true })).toEqual({
      kind: 'refuse',
      status: {
        status: 'Failure',
        code: 400,
        reason: 'BadRequest',
        message: 'admission webhook "h.example.com" does not support dry run',
      },
    });
    expect(checkDryRun({ name: 'h', sideEffects: null }, { dryRun: true })).toEqual({
      kind: 'failure',
      failure: { kind: 'sideeffects-nil', message: 'Webhook SideEffects is nil', code: 400 },
    });
  });
});

describe('classifySideEffect', () => {
  it.each<{ sideEffects: SideEffectClass | null; dryRun: boolean; want: string | undefined }>([
    { sideEffects: 'NoneOnDryRun', dryRun: true, want: 'dry-run' },
    { sideEffects: 'None', dryRun: true, want: 'dry-run' },
    { sideEffects: 'None', dryRun: false, want: 'side-effects-none' },
    { sideEffects: 'NoneOnDryRun', dryRun: false, want: undefined },
    { sideEffects: 'Some', dryRun: false, want: undefined },
    { sideEffects: 'Unknown', dryRun: false, want: undefined },
  ])('sideEffects $sideEffects, dryRun $dryRun → $want', ({ sideEffects, dryRun, want }) => {
    expect(classifySideEffect({ sideEffects }, { dryRun })).toBe(want);
  });
});
