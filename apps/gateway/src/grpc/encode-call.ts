/**
 * HookCall → AdmitRequest. The cheapest faithful encoding wins:
 *  - plugins that apply patches get the received bytes plus the patch accumulated so far
 *    (no re-encoding at all, whatever earlier hooks changed), and the request's head (the stanza
 *    without its objects) so that they can answer from metadata without parsing the 8 KB review;
 *  - others get the received stanza bytes while the object is unchanged;
 *  - otherwise the call's request is encoded (the object as patched so far).
 * The received bytes are only used while the call is for the same kind/resource as received
 * (an Equivalent match changes them) — and the uid always travels in its own field.
 */
import type { AdmissionRequest, HookCall, PatchOperation } from '@hookgate/admission';
import type { AdmitRequest } from '@hookgate/proto';
import type { PluginCapabilities } from '@hookgate/plugin-client';
import type { ReceivedRequest } from './received-request.js';

const NO_PATCH = Buffer.alloc(0);

/** Per review: what every call of the review shares, encoded once for all of them. */
export class ReviewEncodeCache {
  readonly #patches = new WeakMap<readonly PatchOperation[], Buffer>();
  #head: Buffer | undefined;

  /** The JSON of an accumulated patch (the chain hands the same array to every later hook). */
  patch(ops: readonly PatchOperation[]): Buffer {
    if (ops.length === 0) return NO_PATCH;
    let bytes = this.#patches.get(ops);
    if (bytes === undefined) {
      bytes = Buffer.from(JSON.stringify(ops), 'utf8');
      this.#patches.set(ops, bytes);
    }
    return bytes;
  }

  /** The received stanza without object and oldObject: the same for every call that forwards the received bytes. */
  head(received: AdmissionRequest): Buffer {
    if (this.#head === undefined) {
      const { object: _object, oldObject: _oldObject, ...head } = received;
      this.#head = Buffer.from(JSON.stringify(head), 'utf8');
    }
    return this.#head;
  }
}

export function encodeCall(
  call: HookCall,
  capabilities: PluginCapabilities,
  received: ReceivedRequest | undefined,
  cache: ReviewEncodeCache,
  timeoutMs: number,
): AdmitRequest {
  const message = encodeRequestFields(call, capabilities, received, cache);
  message.hook = call.hook.name;
  message.round = call.round;
  message.uid = call.request.uid;
  message.timeoutMs = Math.max(0, Math.ceil(timeoutMs));
  message.reviewVersion = call.version;
  return message;
}

/**
 * The fields a batch shares (phase and the request bytes), from one of its calls: the calls of a
 * batch differ only in their uid (which travels in each entry) and their own fields.
 */
export function encodeRequestFields(
  call: HookCall,
  capabilities: PluginCapabilities,
  received: ReceivedRequest | undefined,
  cache: ReviewEncodeCache,
): AdmitRequest {
  const message: AdmitRequest = { phase: call.hook.phase === 'mutating' ? 'MUTATING' : 'VALIDATING' };
  const forwardable = received !== undefined && isSameInvocation(call.request, received.request);
  if (forwardable && capabilities.applyPatch) {
    message.baseRequest = asBuffer(received.bytes);
    message.patch = cache.patch(call.patchFromOriginal);
    message.requestHead = cache.head(received.request);
  } else if (forwardable && received.form === 'request' && call.patchFromOriginal.length === 0) {
    message.request = asBuffer(received.bytes);
  } else {
    message.request = Buffer.from(JSON.stringify(call.request), 'utf8');
  }
  return message;
}

/** Whether two calls can share one encoding of the request: same phase, object, patch and invocation. */
export function shareRequest(a: HookCall, b: HookCall): boolean {
  return (
    a.hook.phase === b.hook.phase &&
    a.request.object === b.request.object &&
    a.request.oldObject === b.request.oldObject &&
    a.patchFromOriginal === b.patchFromOriginal &&
    isSameInvocation(a.request, b.request)
  );
}

/** Same kind, resource and subresource as received: only the uid and the object may differ. */
function isSameInvocation(call: AdmissionRequest, received: AdmissionRequest): boolean {
  return (
    call.kind.group === received.kind.group &&
    call.kind.version === received.kind.version &&
    call.kind.kind === received.kind.kind &&
    call.resource.group === received.resource.group &&
    call.resource.version === received.resource.version &&
    call.resource.resource === received.resource.resource &&
    (call.subResource ?? '') === (received.subResource ?? '')
  );
}

/** A Buffer view of the same memory (protobuf copies the bytes into the message once). */
function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
