// Original file: proto/hookgate/plugin/v1/plugin.proto


/**
 * A hook error on AdmitStream: what a unary call reports as its gRPC status.
 */
export interface HookError {
  /**
   * A google.rpc.Code number (13 INTERNAL for a handler error, 5 NOT_FOUND for an unknown hook).
   */
  'code'?: (number);
  'message'?: (string);
}

/**
 * A hook error on AdmitStream: what a unary call reports as its gRPC status.
 */
export interface HookError__Output {
  /**
   * A google.rpc.Code number (13 INTERNAL for a handler error, 5 NOT_FOUND for an unknown hook).
   */
  'code': (number);
  'message': (string);
}
