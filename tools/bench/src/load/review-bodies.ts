/**
 * Request bodies as the apiserver produces them: the review encoded once per object state, with a
 * fresh uid for every webhook call (spliced in, so a new uid costs no re-encoding of 8 KB).
 */
import { randomBytes } from 'node:crypto';
import fastJsonPatch from 'fast-json-patch';
import type { JsonObject } from '../hooks/bench-hooks.js';
import type { PodReview } from '../review/pod-review.js';

const UID_MARK = '@@bench-uid@@';

/** One encoded review, waiting for its uid. */
export interface EncodedReview {
  withUid(uid: string): string;
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

  /** A fresh uid per webhook call, UUID-shaped, as the apiserver sends. */
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
    }).split(`"${UID_MARK}"`);
    return { withUid: (uid) => `${prefix}"${uid}"${suffix}` };
  }
}

/** Applies a base64 JSONPatch from an AdmissionResponse to the object, in place, as the apiserver does. */
export function applyResponsePatch(object: JsonObject, base64Patch: string): void {
  const operations = JSON.parse(Buffer.from(base64Patch, 'base64').toString('utf8')) as fastJsonPatch.Operation[];
  fastJsonPatch.applyPatch(object, operations, false, true);
}
