// Original file: proto/hookgate/plugin/v1/plugin.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { AdmitRequest as _hookgate_plugin_v1_AdmitRequest, AdmitRequest__Output as _hookgate_plugin_v1_AdmitRequest__Output } from '../../../hookgate/plugin/v1/AdmitRequest.js';
import type { AdmitResponse as _hookgate_plugin_v1_AdmitResponse, AdmitResponse__Output as _hookgate_plugin_v1_AdmitResponse__Output } from '../../../hookgate/plugin/v1/AdmitResponse.js';
import type { DescribeRequest as _hookgate_plugin_v1_DescribeRequest, DescribeRequest__Output as _hookgate_plugin_v1_DescribeRequest__Output } from '../../../hookgate/plugin/v1/DescribeRequest.js';
import type { DescribeResponse as _hookgate_plugin_v1_DescribeResponse, DescribeResponse__Output as _hookgate_plugin_v1_DescribeResponse__Output } from '../../../hookgate/plugin/v1/DescribeResponse.js';
import type { ListHeldEffectsRequest as _hookgate_plugin_v1_ListHeldEffectsRequest, ListHeldEffectsRequest__Output as _hookgate_plugin_v1_ListHeldEffectsRequest__Output } from '../../../hookgate/plugin/v1/ListHeldEffectsRequest.js';
import type { ListHeldEffectsResponse as _hookgate_plugin_v1_ListHeldEffectsResponse, ListHeldEffectsResponse__Output as _hookgate_plugin_v1_ListHeldEffectsResponse__Output } from '../../../hookgate/plugin/v1/ListHeldEffectsResponse.js';
import type { ReconcileOrphanRequest as _hookgate_plugin_v1_ReconcileOrphanRequest, ReconcileOrphanRequest__Output as _hookgate_plugin_v1_ReconcileOrphanRequest__Output } from '../../../hookgate/plugin/v1/ReconcileOrphanRequest.js';
import type { ReconcileRequest as _hookgate_plugin_v1_ReconcileRequest, ReconcileRequest__Output as _hookgate_plugin_v1_ReconcileRequest__Output } from '../../../hookgate/plugin/v1/ReconcileRequest.js';
import type { ReconcileResponse as _hookgate_plugin_v1_ReconcileResponse, ReconcileResponse__Output as _hookgate_plugin_v1_ReconcileResponse__Output } from '../../../hookgate/plugin/v1/ReconcileResponse.js';

export interface AdmissionPluginClient extends grpc.Client {
  /**
   * One hook call. Errors of the hook itself (a handler bug, an unknown hook) are gRPC statuses;
   * the gateway treats every error as a calling failure decided by the hook's failurePolicy.
   */
  Admit(argument: _hookgate_plugin_v1_AdmitRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_hookgate_plugin_v1_AdmitResponse__Output>): grpc.ClientUnaryCall;
  Admit(argument: _hookgate_plugin_v1_AdmitRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_hookgate_plugin_v1_AdmitResponse__Output>): grpc.ClientUnaryCall;
  Admit(argument: _hookgate_plugin_v1_AdmitRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_hookgate_plugin_v1_AdmitResponse__Output>): grpc.ClientUnaryCall;
  Admit(argument: _hookgate_plugin_v1_AdmitRequest, callback: grpc.requestCallback<_hookgate_plugin_v1_AdmitResponse__Output>): grpc.ClientUnaryCall;
  /**
   * One hook call. Errors of the hook itself (a handler bug, an unknown hook) are gRPC statuses;
   * the gateway treats every error as a calling failure decided by the hook's failurePolicy.
   */
  admit(argument: _hookgate_plugin_v1_AdmitRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_hookgate_plugin_v1_AdmitResponse__Output>): grpc.ClientUnaryCall;
  admit(argument: _hookgate_plugin_v1_AdmitRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_hookgate_plugin_v1_AdmitResponse__Output>): grpc.ClientUnaryCall;
  admit(argument: _hookgate_plugin_v1_AdmitRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_hookgate_plugin_v1_AdmitResponse__Output>): grpc.ClientUnaryCall;
  admit(argument: _hookgate_plugin_v1_AdmitRequest, callback: grpc.requestCallback<_hookgate_plugin_v1_AdmitResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * The same messages multiplexed by `id` over one long-lived stream per plugin and gateway worker.
   * Answers may go out of order. A hook error is an AdmitResponse with `error` set, never a stream
   * error: the stream fails only when the transport does. Deadlines are the gateway's own timers.
   */
  AdmitStream(metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientDuplexStream<_hookgate_plugin_v1_AdmitRequest, _hookgate_plugin_v1_AdmitResponse__Output>;
  AdmitStream(options?: grpc.CallOptions): grpc.ClientDuplexStream<_hookgate_plugin_v1_AdmitRequest, _hookgate_plugin_v1_AdmitResponse__Output>;
  /**
   * The same messages multiplexed by `id` over one long-lived stream per plugin and gateway worker.
   * Answers may go out of order. A hook error is an AdmitResponse with `error` set, never a stream
   * error: the stream fails only when the transport does. Deadlines are the gateway's own timers.
   */
  admitStream(metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientDuplexStream<_hookgate_plugin_v1_AdmitRequest, _hookgate_plugin_v1_AdmitResponse__Output>;
  admitStream(options?: grpc.CallOptions): grpc.ClientDuplexStream<_hookgate_plugin_v1_AdmitRequest, _hookgate_plugin_v1_AdmitResponse__Output>;
  
  /**
   * What the plugin offers. Optional: a plugin that does not implement it (UNIMPLEMENTED) is
   * called with unary Admit and always receives the whole request.
   */
  Describe(argument: _hookgate_plugin_v1_DescribeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_hookgate_plugin_v1_DescribeResponse__Output>): grpc.ClientUnaryCall;
  Describe(argument: _hookgate_plugin_v1_DescribeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_hookgate_plugin_v1_DescribeResponse__Output>): grpc.ClientUnaryCall;
  Describe(argument: _hookgate_plugin_v1_DescribeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_hookgate_plugin_v1_DescribeResponse__Output>): grpc.ClientUnaryCall;
  Describe(argument: _hookgate_plugin_v1_DescribeRequest, callback: grpc.requestCallback<_hookgate_plugin_v1_DescribeResponse__Output>): grpc.ClientUnaryCall;
  /**
   * What the plugin offers. Optional: a plugin that does not implement it (UNIMPLEMENTED) is
   * called with unary Admit and always receives the whole request.
   */
  describe(argument: _hookgate_plugin_v1_DescribeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_hookgate_plugin_v1_DescribeResponse__Output>): grpc.ClientUnaryCall;
  describe(argument: _hookgate_plugin_v1_DescribeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_hookgate_plugin_v1_DescribeResponse__Output>): grpc.ClientUnaryCall;
  describe(argument: _hookgate_plugin_v1_DescribeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_hookgate_plugin_v1_DescribeResponse__Output>): grpc.ClientUnaryCall;
  describe(argument: _hookgate_plugin_v1_DescribeRequest, callback: grpc.requestCallback<_hookgate_plugin_v1_DescribeResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Periodic resync, optional (UNIMPLEMENTED: the plugin is not resynced). The out-of-band effects
   * the plugin holds, a page at a time, each with the object it belongs to. The controller reads
   * each object and calls ReconcileOrphan for those whose object is gone or was replaced: effects
   * whose admission job was lost (a crash between the write and the job) or never reconciled.
   */
  ListHeldEffects(argument: _hookgate_plugin_v1_ListHeldEffectsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_hookgate_plugin_v1_ListHeldEffectsResponse__Output>): grpc.ClientUnaryCall;
  ListHeldEffects(argument: _hookgate_plugin_v1_ListHeldEffectsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_hookgate_plugin_v1_ListHeldEffectsResponse__Output>): grpc.ClientUnaryCall;
  ListHeldEffects(argument: _hookgate_plugin_v1_ListHeldEffectsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_hookgate_plugin_v1_ListHeldEffectsResponse__Output>): grpc.ClientUnaryCall;
  ListHeldEffects(argument: _hookgate_plugin_v1_ListHeldEffectsRequest, callback: grpc.requestCallback<_hookgate_plugin_v1_ListHeldEffectsResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Periodic resync, optional (UNIMPLEMENTED: the plugin is not resynced). The out-of-band effects
   * the plugin holds, a page at a time, each with the object it belongs to. The controller reads
   * each object and calls ReconcileOrphan for those whose object is gone or was replaced: effects
   * whose admission job was lost (a crash between the write and the job) or never reconciled.
   */
  listHeldEffects(argument: _hookgate_plugin_v1_ListHeldEffectsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_hookgate_plugin_v1_ListHeldEffectsResponse__Output>): grpc.ClientUnaryCall;
  listHeldEffects(argument: _hookgate_plugin_v1_ListHeldEffectsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_hookgate_plugin_v1_ListHeldEffectsResponse__Output>): grpc.ClientUnaryCall;
  listHeldEffects(argument: _hookgate_plugin_v1_ListHeldEffectsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_hookgate_plugin_v1_ListHeldEffectsResponse__Output>): grpc.ClientUnaryCall;
  listHeldEffects(argument: _hookgate_plugin_v1_ListHeldEffectsRequest, callback: grpc.requestCallback<_hookgate_plugin_v1_ListHeldEffectsResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * One side effect to reconcile, once the controller knows whether the object was persisted.
   */
  Reconcile(argument: _hookgate_plugin_v1_ReconcileRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_hookgate_plugin_v1_ReconcileResponse__Output>): grpc.ClientUnaryCall;
  Reconcile(argument: _hookgate_plugin_v1_ReconcileRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_hookgate_plugin_v1_ReconcileResponse__Output>): grpc.ClientUnaryCall;
  Reconcile(argument: _hookgate_plugin_v1_ReconcileRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_hookgate_plugin_v1_ReconcileResponse__Output>): grpc.ClientUnaryCall;
  Reconcile(argument: _hookgate_plugin_v1_ReconcileRequest, callback: grpc.requestCallback<_hookgate_plugin_v1_ReconcileResponse__Output>): grpc.ClientUnaryCall;
  /**
   * One side effect to reconcile, once the controller knows whether the object was persisted.
   */
  reconcile(argument: _hookgate_plugin_v1_ReconcileRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_hookgate_plugin_v1_ReconcileResponse__Output>): grpc.ClientUnaryCall;
  reconcile(argument: _hookgate_plugin_v1_ReconcileRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_hookgate_plugin_v1_ReconcileResponse__Output>): grpc.ClientUnaryCall;
  reconcile(argument: _hookgate_plugin_v1_ReconcileRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_hookgate_plugin_v1_ReconcileResponse__Output>): grpc.ClientUnaryCall;
  reconcile(argument: _hookgate_plugin_v1_ReconcileRequest, callback: grpc.requestCallback<_hookgate_plugin_v1_ReconcileResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * One held effect whose object is gone (absent) or replaced (another uid under the name): undo
   * it. Must be idempotent and must change nothing when the effect is no longer what was listed
   * (held.side_effect carries what the plugin needs to check that, e.g. a version).
   */
  ReconcileOrphan(argument: _hookgate_plugin_v1_ReconcileOrphanRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_hookgate_plugin_v1_ReconcileResponse__Output>): grpc.ClientUnaryCall;
  ReconcileOrphan(argument: _hookgate_plugin_v1_ReconcileOrphanRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_hookgate_plugin_v1_ReconcileResponse__Output>): grpc.ClientUnaryCall;
  ReconcileOrphan(argument: _hookgate_plugin_v1_ReconcileOrphanRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_hookgate_plugin_v1_ReconcileResponse__Output>): grpc.ClientUnaryCall;
  ReconcileOrphan(argument: _hookgate_plugin_v1_ReconcileOrphanRequest, callback: grpc.requestCallback<_hookgate_plugin_v1_ReconcileResponse__Output>): grpc.ClientUnaryCall;
  /**
   * One held effect whose object is gone (absent) or replaced (another uid under the name): undo
   * it. Must be idempotent and must change nothing when the effect is no longer what was listed
   * (held.side_effect carries what the plugin needs to check that, e.g. a version).
   */
  reconcileOrphan(argument: _hookgate_plugin_v1_ReconcileOrphanRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_hookgate_plugin_v1_ReconcileResponse__Output>): grpc.ClientUnaryCall;
  reconcileOrphan(argument: _hookgate_plugin_v1_ReconcileOrphanRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_hookgate_plugin_v1_ReconcileResponse__Output>): grpc.ClientUnaryCall;
  reconcileOrphan(argument: _hookgate_plugin_v1_ReconcileOrphanRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_hookgate_plugin_v1_ReconcileResponse__Output>): grpc.ClientUnaryCall;
  reconcileOrphan(argument: _hookgate_plugin_v1_ReconcileOrphanRequest, callback: grpc.requestCallback<_hookgate_plugin_v1_ReconcileResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface AdmissionPluginHandlers extends grpc.UntypedServiceImplementation {
  /**
   * One hook call. Errors of the hook itself (a handler bug, an unknown hook) are gRPC statuses;
   * the gateway treats every error as a calling failure decided by the hook's failurePolicy.
   */
  Admit: grpc.handleUnaryCall<_hookgate_plugin_v1_AdmitRequest__Output, _hookgate_plugin_v1_AdmitResponse>;
  
  /**
   * The same messages multiplexed by `id` over one long-lived stream per plugin and gateway worker.
   * Answers may go out of order. A hook error is an AdmitResponse with `error` set, never a stream
   * error: the stream fails only when the transport does. Deadlines are the gateway's own timers.
   */
  AdmitStream: grpc.handleBidiStreamingCall<_hookgate_plugin_v1_AdmitRequest__Output, _hookgate_plugin_v1_AdmitResponse>;
  
  /**
   * What the plugin offers. Optional: a plugin that does not implement it (UNIMPLEMENTED) is
   * called with unary Admit and always receives the whole request.
   */
  Describe: grpc.handleUnaryCall<_hookgate_plugin_v1_DescribeRequest__Output, _hookgate_plugin_v1_DescribeResponse>;
  
  /**
   * Periodic resync, optional (UNIMPLEMENTED: the plugin is not resynced). The out-of-band effects
   * the plugin holds, a page at a time, each with the object it belongs to. The controller reads
   * each object and calls ReconcileOrphan for those whose object is gone or was replaced: effects
   * whose admission job was lost (a crash between the write and the job) or never reconciled.
   */
  ListHeldEffects: grpc.handleUnaryCall<_hookgate_plugin_v1_ListHeldEffectsRequest__Output, _hookgate_plugin_v1_ListHeldEffectsResponse>;
  
  /**
   * One side effect to reconcile, once the controller knows whether the object was persisted.
   */
  Reconcile: grpc.handleUnaryCall<_hookgate_plugin_v1_ReconcileRequest__Output, _hookgate_plugin_v1_ReconcileResponse>;
  
  /**
   * One held effect whose object is gone (absent) or replaced (another uid under the name): undo
   * it. Must be idempotent and must change nothing when the effect is no longer what was listed
   * (held.side_effect carries what the plugin needs to check that, e.g. a version).
   */
  ReconcileOrphan: grpc.handleUnaryCall<_hookgate_plugin_v1_ReconcileOrphanRequest__Output, _hookgate_plugin_v1_ReconcileResponse>;
  
}

export interface AdmissionPluginDefinition extends grpc.ServiceDefinition {
  Admit: MethodDefinition<_hookgate_plugin_v1_AdmitRequest, _hookgate_plugin_v1_AdmitResponse, _hookgate_plugin_v1_AdmitRequest__Output, _hookgate_plugin_v1_AdmitResponse__Output>
  AdmitStream: MethodDefinition<_hookgate_plugin_v1_AdmitRequest, _hookgate_plugin_v1_AdmitResponse, _hookgate_plugin_v1_AdmitRequest__Output, _hookgate_plugin_v1_AdmitResponse__Output>
  Describe: MethodDefinition<_hookgate_plugin_v1_DescribeRequest, _hookgate_plugin_v1_DescribeResponse, _hookgate_plugin_v1_DescribeRequest__Output, _hookgate_plugin_v1_DescribeResponse__Output>
  ListHeldEffects: MethodDefinition<_hookgate_plugin_v1_ListHeldEffectsRequest, _hookgate_plugin_v1_ListHeldEffectsResponse, _hookgate_plugin_v1_ListHeldEffectsRequest__Output, _hookgate_plugin_v1_ListHeldEffectsResponse__Output>
  Reconcile: MethodDefinition<_hookgate_plugin_v1_ReconcileRequest, _hookgate_plugin_v1_ReconcileResponse, _hookgate_plugin_v1_ReconcileRequest__Output, _hookgate_plugin_v1_ReconcileResponse__Output>
  ReconcileOrphan: MethodDefinition<_hookgate_plugin_v1_ReconcileOrphanRequest, _hookgate_plugin_v1_ReconcileResponse, _hookgate_plugin_v1_ReconcileOrphanRequest__Output, _hookgate_plugin_v1_ReconcileResponse__Output>
}
