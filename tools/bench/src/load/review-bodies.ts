/**
 * Request bodies as the apiserver produces them: the review encoded once per object state, with a
 * fresh uid for every webhook call. The uid has a fixed length, so a call's body is the encoded
 * prefix, the uid and the suffix copied into one Buffer: no string building, no UTF-8 encoding of
 * 8 KB per call.
 */
import { randomBytes } from 'node:crypto';
import fastJsonPatch from 'fast-json-patch';
import type { JsonObject } from '../hooks/bench-hooks.js';
import type { PodReview } from '../review/pod-review.js';

const UID_MARK = '@@bench-uid@@';
/** `xxxxxxxx-0000-4000-8000-` + 12 hex digits: UUID-shaped, as the apiserver sends. */
const UID_LENGTH = 36;

/** One encoded review, waiting for its uid. */
export interface EncodedReview {
  withUid(uid: string): Buffer;
}

export class ReviewBodies {
  readonly #review: PodReview;
  readonly #original: EncodedReview;
  readonly #uidPrefix = `${randomBytes(4).toString('hex')}-0000-4000-8000-`;
  #counter = 0;

  constructor(review: PodReview) {
    this.#review = review;
    this.#original = this.encode(review.request.object);
  }

  /** A fresh uid per webhook call, always UID_LENGTH ASCII characters. */
  nextUid(): string {
    this.#counter += 1;
    return this.#uidPrefix + this.#counter.toString(16).padStart(12, '0');
  }

  get original(): EncodedReview {
    return this.#original;
  }

  /** The object as it entered admission, to be patched: each review gets its own copy. */
  copyOfObject(): JsonObject {
    return structuredClone(this.#review.request.object);
  }

  encode(object: JsonObject): EncodedReview {
    const [prefix, suffix] = JSON.stringify({
      ...this.#review,
      request: { ...this.#review.request, uid: UID_MARK, object },
    })
      .split(`"${UID_MARK}"`)
      .map((part) => Buffer.from(part, 'utf8'));
    return new SplicedReview(prefix!, suffix!);
  }
}

class SplicedReview implements EncodedReview {
  readonly #prefix: Buffer;
  readonly #suffix: Buffer;
  readonly #length: number;

  constructor(prefix: Buffer, suffix: Buffer) {
    this.#prefix = prefix;
    this.#suffix = suffix;
    this.#length = prefix.length + UID_LENGTH + 2 + suffix.length;
  }

  withUid(uid: string): Buffer {
    if (uid.length !== UID_LENGTH) throw new Error(`bench uid ${uid} is not ${UID_LENGTH} characters`);
    const out = Buffer.allocUnsafe(this.#length);
    let at = this.#prefix.copy(out, 0);
    out[at++] = 0x22; // "
    at += out.write(uid, at, 'latin1');
    out[at++] = 0x22;
    this.#suffix.copy(out, at);
    return out;
  }
}

/** Applies a base64 JSONPatch from an AdmissionResponse to the object, in place, as the apiserver does. */
export function applyResponsePatch(object: JsonObject, base64Patch: string): void {
  const operations = JSON.parse(Buffer.from(base64Patch, 'base64').toString('utf8')) as fastJsonPatch.Operation[];
  fastJsonPatch.applyPatch(object, operations, false, true);
}
