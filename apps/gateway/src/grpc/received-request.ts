/**
 * The request bytes exactly as the gateway received them, so that plugins get them forwarded
 * instead of a re-encoding of the object. The admission route builds one per review.
 */
import type { AdmissionRequest } from '@hookgate/admission';

export interface ReceivedRequest {
  /** The body as received: the whole AdmissionReview (form 'review') or the request stanza alone. */
  readonly bytes: Uint8Array;
  readonly form: 'review' | 'request';
  /** The request decoded from those bytes (to tell whether a call still matches them). */
  readonly request: AdmissionRequest;
}
