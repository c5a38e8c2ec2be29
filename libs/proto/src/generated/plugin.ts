import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { AdmissionPluginClient as _hookgate_plugin_v1_AdmissionPluginClient, AdmissionPluginDefinition as _hookgate_plugin_v1_AdmissionPluginDefinition } from './hookgate/plugin/v1/AdmissionPlugin.js';
import type { AdmissionSummary as _hookgate_plugin_v1_AdmissionSummary, AdmissionSummary__Output as _hookgate_plugin_v1_AdmissionSummary__Output } from './hookgate/plugin/v1/AdmissionSummary.js';
import type { AdmitRequest as _hookgate_plugin_v1_AdmitRequest, AdmitRequest__Output as _hookgate_plugin_v1_AdmitRequest__Output } from './hookgate/plugin/v1/AdmitRequest.js';
import type { AdmitResponse as _hookgate_plugin_v1_AdmitResponse, AdmitResponse__Output as _hookgate_plugin_v1_AdmitResponse__Output } from './hookgate/plugin/v1/AdmitResponse.js';
import type { BatchedCall as _hookgate_plugin_v1_BatchedCall, BatchedCall__Output as _hookgate_plugin_v1_BatchedCall__Output } from './hookgate/plugin/v1/BatchedCall.js';
import type { DescribeRequest as _hookgate_plugin_v1_DescribeRequest, DescribeRequest__Output as _hookgate_plugin_v1_DescribeRequest__Output } from './hookgate/plugin/v1/DescribeRequest.js';
import type { DescribeResponse as _hookgate_plugin_v1_DescribeResponse, DescribeResponse__Output as _hookgate_plugin_v1_DescribeResponse__Output } from './hookgate/plugin/v1/DescribeResponse.js';
import type { HeldEffect as _hookgate_plugin_v1_HeldEffect, HeldEffect__Output as _hookgate_plugin_v1_HeldEffect__Output } from './hookgate/plugin/v1/HeldEffect.js';
import type { HookDescription as _hookgate_plugin_v1_HookDescription, HookDescription__Output as _hookgate_plugin_v1_HookDescription__Output } from './hookgate/plugin/v1/HookDescription.js';
import type { HookError as _hookgate_plugin_v1_HookError, HookError__Output as _hookgate_plugin_v1_HookError__Output } from './hookgate/plugin/v1/HookError.js';
import type { ListHeldEffectsRequest as _hookgate_plugin_v1_ListHeldEffectsRequest, ListHeldEffectsRequest__Output as _hookgate_plugin_v1_ListHeldEffectsRequest__Output } from './hookgate/plugin/v1/ListHeldEffectsRequest.js';
import type { ListHeldEffectsResponse as _hookgate_plugin_v1_ListHeldEffectsResponse, ListHeldEffectsResponse__Output as _hookgate_plugin_v1_ListHeldEffectsResponse__Output } from './hookgate/plugin/v1/ListHeldEffectsResponse.js';
import type { ObjectReference as _hookgate_plugin_v1_ObjectReference, ObjectReference__Output as _hookgate_plugin_v1_ObjectReference__Output } from './hookgate/plugin/v1/ObjectReference.js';
import type { ReconcileOrphanRequest as _hookgate_plugin_v1_ReconcileOrphanRequest, ReconcileOrphanRequest__Output as _hookgate_plugin_v1_ReconcileOrphanRequest__Output } from './hookgate/plugin/v1/ReconcileOrphanRequest.js';
import type { ReconcileRequest as _hookgate_plugin_v1_ReconcileRequest, ReconcileRequest__Output as _hookgate_plugin_v1_ReconcileRequest__Output } from './hookgate/plugin/v1/ReconcileRequest.js';
import type { ReconcileResponse as _hookgate_plugin_v1_ReconcileResponse, ReconcileResponse__Output as _hookgate_plugin_v1_ReconcileResponse__Output } from './hookgate/plugin/v1/ReconcileResponse.js';
import type { SideEffect as _hookgate_plugin_v1_SideEffect, SideEffect__Output as _hookgate_plugin_v1_SideEffect__Output } from './hookgate/plugin/v1/SideEffect.js';
import type { Status as _hookgate_plugin_v1_Status, Status__Output as _hookgate_plugin_v1_Status__Output } from './hookgate/plugin/v1/Status.js';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  hookgate: {
    plugin: {
      v1: {
        AdmissionPlugin: SubtypeConstructor<typeof grpc.Client, _hookgate_plugin_v1_AdmissionPluginClient> & { service: _hookgate_plugin_v1_AdmissionPluginDefinition }
        AdmissionSummary: MessageTypeDefinition<_hookgate_plugin_v1_AdmissionSummary, _hookgate_plugin_v1_AdmissionSummary__Output>
        AdmitRequest: MessageTypeDefinition<_hookgate_plugin_v1_AdmitRequest, _hookgate_plugin_v1_AdmitRequest__Output>
        AdmitResponse: MessageTypeDefinition<_hookgate_plugin_v1_AdmitResponse, _hookgate_plugin_v1_AdmitResponse__Output>
        BatchedCall: MessageTypeDefinition<_hookgate_plugin_v1_BatchedCall, _hookgate_plugin_v1_BatchedCall__Output>
        DescribeRequest: MessageTypeDefinition<_hookgate_plugin_v1_DescribeRequest, _hookgate_plugin_v1_DescribeRequest__Output>
        DescribeResponse: MessageTypeDefinition<_hookgate_plugin_v1_DescribeResponse, _hookgate_plugin_v1_DescribeResponse__Output>
        HeldEffect: MessageTypeDefinition<_hookgate_plugin_v1_HeldEffect, _hookgate_plugin_v1_HeldEffect__Output>
        HookDescription: MessageTypeDefinition<_hookgate_plugin_v1_HookDescription, _hookgate_plugin_v1_HookDescription__Output>
        HookError: MessageTypeDefinition<_hookgate_plugin_v1_HookError, _hookgate_plugin_v1_HookError__Output>
        ListHeldEffectsRequest: MessageTypeDefinition<_hookgate_plugin_v1_ListHeldEffectsRequest, _hookgate_plugin_v1_ListHeldEffectsRequest__Output>
        ListHeldEffectsResponse: MessageTypeDefinition<_hookgate_plugin_v1_ListHeldEffectsResponse, _hookgate_plugin_v1_ListHeldEffectsResponse__Output>
        ObjectReference: MessageTypeDefinition<_hookgate_plugin_v1_ObjectReference, _hookgate_plugin_v1_ObjectReference__Output>
        Outcome: EnumTypeDefinition
        Phase: EnumTypeDefinition
        ReconcileOrphanRequest: MessageTypeDefinition<_hookgate_plugin_v1_ReconcileOrphanRequest, _hookgate_plugin_v1_ReconcileOrphanRequest__Output>
        ReconcileRequest: MessageTypeDefinition<_hookgate_plugin_v1_ReconcileRequest, _hookgate_plugin_v1_ReconcileRequest__Output>
        ReconcileResponse: MessageTypeDefinition<_hookgate_plugin_v1_ReconcileResponse, _hookgate_plugin_v1_ReconcileResponse__Output>
        SideEffect: MessageTypeDefinition<_hookgate_plugin_v1_SideEffect, _hookgate_plugin_v1_SideEffect__Output>
        Status: MessageTypeDefinition<_hookgate_plugin_v1_Status, _hookgate_plugin_v1_Status__Output>
      }
    }
  }
}

