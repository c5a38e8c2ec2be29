/**
 * AdmitResponse → HookReply, with the apiserver's checks on an answer (VerifyAdmissionResponse):
 * uid echo (v1), no patch from a validating hook (v1; ignored for v1beta1). The patch is passed
 * on as text: decoding and applying it is the chain's job.
 */
import type { HookAnswer, HookCall, HookReply, SideEffect, Status } from '@hookgate/admission';
import type { AdmitResponse__Output } from '@hookgate/proto';
import { invalidResponseFailure, rpcFailure } from './failures.js';

export function verifyAnswer(call: HookCall, response: AdmitResponse__Output, url: string): HookReply {
  if (response.error !== null)
    return { ok: false, failure: rpcFailure(url, response.error.code, response.error.message) };
  const strict = call.version === 'v1';
  if (strict && response.uid !== '' && response.uid !== call.request.uid) {
    return {
      ok: false,
      failure: invalidResponseFailure(
        `expected response.uid=${JSON.stringify(call.request.uid)}, got ${JSON.stringify(response.uid)}`,
      ),
    };
  }
  let patch = response.patch.length > 0 ? response.patch.toString('utf8') : undefined;
  if (patch !== undefined && call.hook.phase === 'validating') {
    if (strict)
      return { ok: false, failure: invalidResponseFailure('validating webhook may not return response.patch') };
    patch = undefined;
  }
  const answer: { -readonly [K in keyof HookAnswer]: HookAnswer[K] } = { allowed: response.allowed };
  const status = statusOf(response);
  if (status !== undefined) answer.status = status;
  if (patch !== undefined) answer.patch = patch;
  if (response.warnings.length > 0) answer.warnings = response.warnings;
  for (const _ in response.auditAnnotations) {
    answer.auditAnnotations = response.auditAnnotations;
    break;
  }
  if (response.sideEffects.length > 0) {
    answer.sideEffects = response.sideEffects.map((s): SideEffect =>
      s.payload.length > 0 ? { kind: s.kind, key: s.key, payload: s.payload } : { kind: s.kind, key: s.key },
    );
  }
  return { ok: true, answer };
}

function statusOf(response: AdmitResponse__Output): Status | undefined {
  const s = response.status;
  if (s === null) return undefined;
  const status: Status = {};
  if (s.code !== 0) status.code = s.code;
  if (s.reason !== '') status.reason = s.reason;
  if (s.message !== '') status.message = s.message;
  return status;
}
