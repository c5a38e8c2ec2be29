/**
 * AdmitRequest bytes → the call's request. With base_request + patch the patch is applied to the
 * parsed object in place (the gateway then never re-encoded the review). When the gateway also sends
 * the request's head (the stanza without its objects), the 8 KB base_request is parsed only when a
 * handler reads an object: a hook that decides on metadata never pays for it. The head itself is
 * parsed when a handler first reads the request's metadata: a hook that reads nothing (answers from
 * its own state) parses nothing; the call's uid travels in its own field.
 */
import { status } from '@grpc/grpc-js';
import fastJsonPatch from 'fast-json-patch';
import { ownMember, type AdmissionRequest, type PatchOperation } from '@hookgate/admission';
import type { AdmitRequest__Output } from '@hookgate/proto';
import { HookCallError, describeError } from './hook-call-error.js';

/** A call's request: its uid at once, the head and the whole request (objects included) when first asked for. */
export interface RequestSource {
  /** The call's uid (authoritative), without parsing anything when the message carries it. */
  readonly uid: string;
  /**
   * Every field but, possibly, object and oldObject (read those from full()); parsed on first read,
   * throws a HookCallError (INVALID_ARGUMENT) when the bytes are unusable.
   */
  readonly head: AdmissionRequest;
  /** The whole request; throws a HookCallError (INVALID_ARGUMENT) when the bytes are unusable. */
  full(): AdmissionRequest;
}

/** An already decoded request (tests, and calls that carry no head). */
export function decodedSource(request: AdmissionRequest): RequestSource {
  return { uid: request.uid, head: request, full: () => request };
}

export function decodeAdmissionRequest(message: AdmitRequest__Output): RequestSource {
  const usesBase = message.baseRequest.length > 0;
  if (!usesBase || message.requestHead.length === 0) return decodedSource(decodeWhole(message));
  return new LazyRequest(message);
}

class LazyRequest implements RequestSource {
  #head: AdmissionRequest | undefined;
  #full: AdmissionRequest | undefined;

  constructor(private readonly message: AdmitRequest__Output) {}

  get uid(): string {
    return this.message.uid !== '' ? this.message.uid : this.head.uid;
  }

  get head(): AdmissionRequest {
    if (this.#head === undefined) {
      const head = parseStanza(this.message.requestHead, this.message, 'request head');
      if (this.message.uid !== '') head.uid = this.message.uid;
      this.#head = head;
    }
    return this.#head;
  }

  full(): AdmissionRequest {
    return (this.#full ??= decodeWhole(this.message));
  }
}

function decodeWhole(message: AdmitRequest__Output): AdmissionRequest {
  const usesBase = message.baseRequest.length > 0;
  const bytes = usesBase ? message.baseRequest : message.request;
  if (bytes.length === 0) {
    throw new HookCallError(
      status.INVALID_ARGUMENT,
      `call for hook ${JSON.stringify(message.hook)} carries no request`,
    );
  }
  const request = parseStanza(bytes, message, 'request', usesBase);
  if (usesBase && message.patch.length > 2) applyObjectPatch(request, message);
  if (message.uid !== '') request.uid = message.uid;
  return request;
}

function parseStanza(
  bytes: Buffer,
  message: AdmitRequest__Output,
  what: string,
  mayBeReview = false,
): AdmissionRequest {
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    throw new HookCallError(
      status.INVALID_ARGUMENT,
      `${what} for hook ${JSON.stringify(message.hook)} is not valid JSON: ${describeError(error)}`,
    );
  }
  const request = mayBeReview ? stanzaOf(parsed) : parsed;
  if (!isRequestStanza(request)) {
    throw new HookCallError(
      status.INVALID_ARGUMENT,
      `${what} for hook ${JSON.stringify(message.hook)} is not an AdmissionRequest`,
    );
  }
  return request;
}

/** base_request is either the stanza or a whole AdmissionReview whose `request` is the stanza. */
function stanzaOf(parsed: unknown): unknown {
  return ownMember(parsed, 'kind') === 'AdmissionReview' ? ownMember(parsed, 'request') : parsed;
}

function isRequestStanza(value: unknown): value is AdmissionRequest {
  return !Array.isArray(value) && typeof ownMember(value, 'operation') === 'string';
}

function applyObjectPatch(request: AdmissionRequest, message: AdmitRequest__Output): void {
  let ops: PatchOperation[];
  try {
    ops = JSON.parse(message.patch.toString('utf8')) as PatchOperation[];
  } catch (error) {
    throw new HookCallError(
      status.INVALID_ARGUMENT,
      `patch for hook ${JSON.stringify(message.hook)} is not valid JSON: ${describeError(error)}`,
    );
  }
  if (!Array.isArray(ops)) {
    throw new HookCallError(
      status.INVALID_ARGUMENT,
      `patch for hook ${JSON.stringify(message.hook)} is not a JSON array`,
    );
  }
  if (ops.length === 0) return;
  try {
    // validate=false: the gateway applied the same patch already; mutate in place, no copy.
    request.object = fastJsonPatch.applyPatch(
      request.object ?? null,
      ops as fastJsonPatch.Operation[],
      false,
      true,
    ).newDocument;
  } catch (error) {
    throw new HookCallError(
      status.INVALID_ARGUMENT,
      `patch for hook ${JSON.stringify(message.hook)} does not apply to the request object: ${describeError(error)}`,
    );
  }
}
