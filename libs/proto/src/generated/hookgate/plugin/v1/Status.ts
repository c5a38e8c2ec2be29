// Original file: proto/hookgate/plugin/v1/plugin.proto


export interface Status {
  /**
   * HTTP-style code of a denial; below 400 (or 0) is answered as 400 by the gateway.
   */
  'code'?: (number);
  /**
   * A metav1.StatusReason such as "Forbidden", or empty.
   */
  'reason'?: (string);
  'message'?: (string);
}

export interface Status__Output {
  /**
   * HTTP-style code of a denial; below 400 (or 0) is answered as 400 by the gateway.
   */
  'code': (number);
  /**
   * A metav1.StatusReason such as "Forbidden", or empty.
   */
  'reason': (string);
  'message': (string);
}
