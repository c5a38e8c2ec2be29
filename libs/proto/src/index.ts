/**
 * @hookgate/proto: the gRPC contract between the gateway and its plugins (package hookgate.plugin.v1,
 * plus the vendored grpc.health.v1), loaded with @grpc/proto-loader, with generated TypeScript types.
 *
 *   import * as grpc from '@grpc/grpc-js';
 *   import { AdmissionPluginService, newAdmissionPluginClient, type AdmitRequest } from '@hookgate/proto';
 *   server.addService(AdmissionPluginService, handlers);            // plugin side
 *   const client = newAdmissionPluginClient('unix:///run/x.sock', grpc.credentials.createInsecure());
 *
 * Field names are camelCase, bytes are Buffers, enums their names ('MUTATING'), 64-bit ints numbers,
 * and decoded messages carry every field (defaults filled in): see LOADER_OPTIONS.
 * Regenerate the types after editing a .proto: `npm run generate -w libs/proto`.
 */
export { PROTO_DIR, PROTO_FILES, PROTO_PATHS, PLUGIN_PROTO, REGISTRY_PROTO, HEALTH_PROTO } from './proto-files.js';
export { LOADER_OPTIONS, packageDefinition, grpcPackages, type HookgateGrpc } from './loader.js';
export {
  AdmissionPluginService,
  RegistryService,
  HealthService,
  newAdmissionPluginClient,
  newRegistryClient,
  newHealthClient,
} from './services.js';
export { SERVING_STATUS, GRPC_STATUS_NAME, MAX_MESSAGE_BYTES, DEFAULT_GRPC_RECEIVE_LIMIT_BYTES } from './constants.js';

export type {
  AdmissionPluginClient,
  AdmissionPluginHandlers,
  AdmissionPluginDefinition,
} from './generated/hookgate/plugin/v1/AdmissionPlugin.js';
export type { RegistryClient, RegistryHandlers, RegistryDefinition } from './generated/hookgate/plugin/v1/Registry.js';
export type { HealthClient, HealthHandlers, HealthDefinition } from './generated/grpc/health/v1/Health.js';
export type { AdmitRequest, AdmitRequest__Output } from './generated/hookgate/plugin/v1/AdmitRequest.js';
export type { BatchedCall, BatchedCall__Output } from './generated/hookgate/plugin/v1/BatchedCall.js';
export type { AdmitResponse, AdmitResponse__Output } from './generated/hookgate/plugin/v1/AdmitResponse.js';
export type {
  Status as AdmitStatus,
  Status__Output as AdmitStatus__Output,
} from './generated/hookgate/plugin/v1/Status.js';
export type {
  SideEffect as ProtoSideEffect,
  SideEffect__Output as ProtoSideEffect__Output,
} from './generated/hookgate/plugin/v1/SideEffect.js';
export type { HookError, HookError__Output } from './generated/hookgate/plugin/v1/HookError.js';
export type { Phase, Phase__Output } from './generated/hookgate/plugin/v1/Phase.js';
export type { Outcome, Outcome__Output } from './generated/hookgate/plugin/v1/Outcome.js';
export type { DescribeRequest, DescribeRequest__Output } from './generated/hookgate/plugin/v1/DescribeRequest.js';
export type { DescribeResponse, DescribeResponse__Output } from './generated/hookgate/plugin/v1/DescribeResponse.js';
export type { HookDescription, HookDescription__Output } from './generated/hookgate/plugin/v1/HookDescription.js';
export type { ReconcileRequest, ReconcileRequest__Output } from './generated/hookgate/plugin/v1/ReconcileRequest.js';
export type { ReconcileResponse, ReconcileResponse__Output } from './generated/hookgate/plugin/v1/ReconcileResponse.js';
export type { AdmissionSummary, AdmissionSummary__Output } from './generated/hookgate/plugin/v1/AdmissionSummary.js';
export type { RegisterRequest, RegisterRequest__Output } from './generated/hookgate/plugin/v1/RegisterRequest.js';
export type { RegistrationTls, RegistrationTls__Output } from './generated/hookgate/plugin/v1/RegistrationTls.js';
export type { RegisterResponse, RegisterResponse__Output } from './generated/hookgate/plugin/v1/RegisterResponse.js';
export type { DeregisterRequest, DeregisterRequest__Output } from './generated/hookgate/plugin/v1/DeregisterRequest.js';
export type {
  DeregisterResponse,
  DeregisterResponse__Output,
} from './generated/hookgate/plugin/v1/DeregisterResponse.js';
export type { HealthCheckRequest, HealthCheckRequest__Output } from './generated/grpc/health/v1/HealthCheckRequest.js';
export type {
  HealthCheckResponse,
  HealthCheckResponse__Output,
  _grpc_health_v1_HealthCheckResponse_ServingStatus as ServingStatus,
  _grpc_health_v1_HealthCheckResponse_ServingStatus__Output as ServingStatus__Output,
} from './generated/grpc/health/v1/HealthCheckResponse.js';
export type { HeldEffect, HeldEffect__Output } from './generated/hookgate/plugin/v1/HeldEffect.js';
export type { ObjectReference, ObjectReference__Output } from './generated/hookgate/plugin/v1/ObjectReference.js';
export type {
  ListHeldEffectsRequest,
  ListHeldEffectsRequest__Output,
} from './generated/hookgate/plugin/v1/ListHeldEffectsRequest.js';
export type {
  ListHeldEffectsResponse,
  ListHeldEffectsResponse__Output,
} from './generated/hookgate/plugin/v1/ListHeldEffectsResponse.js';
export type {
  ReconcileOrphanRequest,
  ReconcileOrphanRequest__Output,
} from './generated/hookgate/plugin/v1/ReconcileOrphanRequest.js';
