/**
 * Handler results → AdmitResponse. A mutating handler that returns the modified object gets its
 * JSON Patch computed here, against the object it received.
 */
import { status } from '@grpc/grpc-js';
import fastJsonPatch from 'fast-json-patch';
import type { AdmitResponse } from '@hookgate/proto';
import type { PatchOperation } from '@hookgate/admission';
import { HookCallError } from './hook-call-error.js';
import type { HookContext } from './hook-context.js';
import type { Deny } from './types.js';

type Fields = Record<string, unknown>;

export function answerValidation(ctx: HookContext, result: unknown): AdmitResponse {
  if (!isRecord(result) || typeof result.allowed !== 'boolean') {
    throw invalidResult(ctx, 'a validating hook must return { allowed: true } or { allowed: false, message }');
  }
  return result.allowed ? allowResponse(ctx, result) : denyResponse(ctx, result);
}

export function answerMutation(ctx: HookContext, result: unknown): AdmitResponse {
  if (result === undefined || result === null) return allowResponse(ctx, undefined);
  if (!isRecord(result)) {
    throw invalidResult(
      ctx,
      `a mutating hook must return the modified object, { patch }, a denial or nothing, not ${describeType(result)}`,
    );
  }
  if (!looksLikeObject(result)) {
    if (Array.isArray(result.patch)) return patchResponse(ctx, checkPatch(ctx, result.patch), result);
    if (result.allowed === false) return denyResponse(ctx, result);
    if (result.allowed === true) return allowResponse(ctx, result);
  }
  const received = ctx.original;
  if (received === undefined) {
    throw invalidResult(ctx, `returned an object, but the ${ctx.operation} request has none to modify`);
  }
  const ops = fastJsonPatch.compare(received, result) as PatchOperation[];
  return patchResponse(ctx, ops, undefined);
}

function allowResponse(ctx: HookContext, result: Fields | undefined): AdmitResponse {
  return withExtras(ctx, { uid: ctx.uid, allowed: true }, result);
}

function denyResponse(ctx: HookContext, result: Fields): AdmitResponse {
  const deny = result as unknown as Deny;
  if (typeof deny.message !== 'string') throw invalidResult(ctx, 'a denial needs a message (string)');
  if (deny.code !== undefined && !Number.isInteger(deny.code))
    throw invalidResult(ctx, 'a denial code must be an integer');
  const reply: AdmitResponse = {
    uid: ctx.uid,
    allowed: false,
    status: { code: deny.code ?? 403, reason: deny.reason ?? 'Forbidden', message: deny.message },
  };
  return withExtras(ctx, reply, result);
}

function patchResponse(ctx: HookContext, ops: readonly PatchOperation[], result: Fields | undefined): AdmitResponse {
  const reply: AdmitResponse = { uid: ctx.uid, allowed: true };
  if (ops.length > 0) reply.patch = Buffer.from(JSON.stringify(ops), 'utf8');
  return withExtras(ctx, reply, result);
}

/** Warnings from the result and from ctx.warn(), annotations and side effects from the context. */
function withExtras(ctx: HookContext, reply: AdmitResponse, result: Fields | undefined): AdmitResponse {
  const fromResult = result?.warnings;
  if (fromResult !== undefined && !isStringArray(fromResult))
    throw invalidResult(ctx, 'warnings must be an array of strings');
  if (ctx.warnings !== undefined || fromResult !== undefined) {
    reply.warnings = [...(ctx.warnings ?? []), ...((fromResult as string[] | undefined) ?? [])];
  }
  if (ctx.annotations !== undefined) reply.auditAnnotations = ctx.annotations;
  if (ctx.sideEffects !== undefined) reply.sideEffects = ctx.sideEffects;
  return reply;
}

function checkPatch(ctx: HookContext, patch: unknown[]): PatchOperation[] {
  for (const [i, op] of patch.entries()) {
    if (!isRecord(op) || typeof op.op !== 'string' || typeof op.path !== 'string') {
      throw invalidResult(ctx, `patch[${i}] is not a JSON Patch operation ({ op, path, ... })`);
    }
  }
  return patch as PatchOperation[];
}

/** A Kubernetes object always carries one of these; { patch } and decisions never do. */
function looksLikeObject(value: Fields): boolean {
  return value.apiVersion !== undefined || value.kind !== undefined || value.metadata !== undefined;
}

function isRecord(value: unknown): value is Fields {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((w) => typeof w === 'string');
}

function describeType(value: unknown): string {
  return Array.isArray(value) ? 'an array' : `a ${typeof value}`;
}

function invalidResult(ctx: HookContext, detail: string): HookCallError {
  return new HookCallError(status.INTERNAL, `hook ${JSON.stringify(ctx.hook)} returned an invalid result: ${detail}`);
}
