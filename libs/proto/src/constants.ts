import type * as grpc from '@grpc/grpc-js';

/**
 * Largest AdmitRequest/AdmitResponse the gateway and the SDK exchange, each way. An AdmissionReview
 * carries object and oldObject (etcd keeps objects up to about 1.5 MiB each) and the gateway accepts
 * bodies up to 8 MiB; grpc-js's own default receive limit is 4 MiB.
 */
export const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

/** gRPC's default receive limit, which a plugin in any language has unless it raised it. */
export const DEFAULT_GRPC_RECEIVE_LIMIT_BYTES = 4 * 1024 * 1024;

/** grpc.health.v1 serving statuses, as the loader decodes them (enums as strings). */
export const SERVING_STATUS = Object.freeze({
  UNKNOWN: 'UNKNOWN',
  SERVING: 'SERVING',
  NOT_SERVING: 'NOT_SERVING',
  SERVICE_UNKNOWN: 'SERVICE_UNKNOWN',
} as const);

/** Go-style names of gRPC status codes ("Unavailable"), for apiserver-shaped error texts. */
export const GRPC_STATUS_NAME: Readonly<Record<grpc.status, string>> = Object.freeze({
  0: 'OK',
  1: 'Canceled',
  2: 'Unknown',
  3: 'InvalidArgument',
  4: 'DeadlineExceeded',
  5: 'NotFound',
  6: 'AlreadyExists',
  7: 'PermissionDenied',
  8: 'ResourceExhausted',
  9: 'FailedPrecondition',
  10: 'Aborted',
  11: 'OutOfRange',
  12: 'Unimplemented',
  13: 'Internal',
  14: 'Unavailable',
  15: 'DataLoss',
  16: 'Unauthenticated',
});
