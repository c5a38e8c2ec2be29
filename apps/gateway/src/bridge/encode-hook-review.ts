/**
 * The body of a bridged call: JSON.stringify(buildHookReview(call)), byte for byte, without
 * re-serialising the object for every hook. The chain never changes an object in place (a patch
 * makes a new one), so the JSON of an object is kept per object identity: the validating hooks of
 * a review, which all get the same object, share one encoding of the 8 KB, and only the small
 * envelope (a fresh uid per call) is encoded per call.
 */
import { buildHookReview, type HookCall } from '@hookgate/admission';

const encodedObjects = new WeakMap<object, string>();

function objectJson(value: unknown): string {
  // Only objects are kept: a string or number is cheap to encode again.
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  let json = encodedObjects.get(value);
  if (json === undefined) {
    json = JSON.stringify(value);
    encodedObjects.set(value, json);
  }
  return json;
}

export function encodeHookReview(call: HookCall): Buffer {
  const review = buildHookReview(call);
  if (review.request === undefined) return Buffer.from(JSON.stringify(review), 'utf8');
  // object, oldObject, dryRun and options are the request's last members (Go's field order) and
  // the request is the review's last member, so the envelope's JSON ends with `}}`.
  const { object, oldObject, dryRun, options, ...head } = review.request;
  let json = JSON.stringify({ ...review, request: head }).slice(0, -2);
  // Members JSON.stringify would leave out (undefined) are left out here too.
  if (object !== undefined) json += `,"object":${objectJson(object)}`;
  if (oldObject !== undefined) json += `,"oldObject":${objectJson(oldObject)}`;
  if (dryRun !== undefined) json += `,"dryRun":${JSON.stringify(dryRun)}`;
  if (options !== undefined) json += `,"options":${JSON.stringify(options)}`;
  return Buffer.from(`${json}}}`, 'utf8');
}
