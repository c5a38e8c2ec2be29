import { describe, expect, it } from 'vitest';
import { decodeBase64Text } from './base64.js';
import { encodeReview, type ReviewOutcome } from './encode.js';
import type { AdmissionReview, ReviewVersion } from '../types/review.js';

interface Case {
  name: string;
  version: ReviewVersion;
  outcome: ReviewOutcome;
  want: AdmissionReview;
}

describe('encodeReview', () => {
  it.each<Case>([
    {
      name: 'allowed, v1',
      version: 'v1',
      outcome: { allowed: true },
      want: { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: 'u', allowed: true } },
    },
    {
      name: 'allowed, v1beta1 answers in v1beta1',
      version: 'v1beta1',
      outcome: { allowed: true },
      want: { apiVersion: 'admission.k8s.io/v1beta1', kind: 'AdmissionReview', response: { uid: 'u', allowed: true } },
    },
    {
      name: 'denied with status',
      version: 'v1',
      outcome: { allowed: false, status: { status: 'Failure', code: 403, reason: 'Forbidden', message: 'no' } },
      want: {
        apiVersion: 'admission.k8s.io/v1',
        kind: 'AdmissionReview',
        response: {
          uid: 'u',
          allowed: false,
          status: { status: 'Failure', code: 403, reason: 'Forbidden', message: 'no' },
        },
      },
    },
    {
      name: 'empty warnings, annotations and patch are omitted',
      version: 'v1',
      outcome: { allowed: true, warnings: [], auditAnnotations: {}, patch: [] },
      want: { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: 'u', allowed: true } },
    },
    {
      name: 'warnings and annotations kept in order',
      version: 'v1',
      outcome: { allowed: true, warnings: ['w1', 'w2'], auditAnnotations: { 'hookgate.io/a': 'b' } },
      want: {
        apiVersion: 'admission.k8s.io/v1',
        kind: 'AdmissionReview',
        response: { uid: 'u', allowed: true, auditAnnotations: { 'hookgate.io/a': 'b' }, warnings: ['w1', 'w2'] },
      },
    },
  ])('$name', ({ version, outcome, want }) => expect(encodeReview(version, 'u', outcome)).toEqual(want));

  it('encodes the patch as base64 of compact JSON with patchType JSONPatch', () => {
    const patch = [
      { op: 'add', path: '/metadata/labels/a', value: 'b' },
      { op: 'remove', path: '/spec/x' },
    ];
    const r = encodeReview('v1', 'u', { allowed: true, patch });
    expect(r.response!.patchType).toBe('JSONPatch');
    expect(r.response!.patch).toBe(
      'W3sib3AiOiJhZGQiLCJwYXRoIjoiL21ldGFkYXRhL2xhYmVscy9hIiwidmFsdWUiOiJiIn0seyJvcCI6InJlbW92ZSIsInBhdGgiOiIvc3BlYy94In1d',
    );
    const text = decodeBase64Text(r.response!.patch!);
    expect(text.ok && JSON.parse(text.text)).toEqual(patch);
  });

  it('does not share arrays with the outcome', () => {
    const warnings = ['a'];
    const r = encodeReview('v1', 'u', { allowed: true, warnings });
    warnings.push('b');
    expect(r.response!.warnings).toEqual(['a']);
  });
});
