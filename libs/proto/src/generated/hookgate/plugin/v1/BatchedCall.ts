// Original file: proto/hookgate/plugin/v1/plugin.proto


/**
 * One hook call inside a batched AdmitRequest: the per-call fields of AdmitRequest.
 */
export interface BatchedCall {
  'id'?: (number);
  'hook'?: (string);
  'round'?: (number);
  /**
   * Authoritative for this call, as AdmitRequest.uid (the shared bytes may carry another uid).
   */
  'uid'?: (string);
  'timeoutMs'?: (number);
  'reviewVersion'?: (string);
}

/**
 * One hook call inside a batched AdmitRequest: the per-call fields of AdmitRequest.
 */
export interface BatchedCall__Output {
  'id': (number);
  'hook': (string);
  'round': (number);
  /**
   * Authoritative for this call, as AdmitRequest.uid (the shared bytes may carry another uid).
   */
  'uid': (string);
  'timeoutMs': (number);
  'reviewVersion': (string);
}
