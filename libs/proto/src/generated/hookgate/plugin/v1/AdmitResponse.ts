// Original file: proto/hookgate/plugin/v1/plugin.proto

import type { Status as _hookgate_plugin_v1_Status, Status__Output as _hookgate_plugin_v1_Status__Output } from '../../../hookgate/plugin/v1/Status.js';
import type { SideEffect as _hookgate_plugin_v1_SideEffect, SideEffect__Output as _hookgate_plugin_v1_SideEffect__Output } from '../../../hookgate/plugin/v1/SideEffect.js';
import type { HookError as _hookgate_plugin_v1_HookError, HookError__Output as _hookgate_plugin_v1_HookError__Output } from '../../../hookgate/plugin/v1/HookError.js';

export interface AdmitResponse {
  /**
   * AdmitRequest.id this answers.
   */
  'id'?: (number);
  /**
   * Optional echo of AdmitRequest.uid; when set, the gateway checks it as the apiserver checks
   * response.uid.
   */
  'uid'?: (string);
  'allowed'?: (boolean);
  'status'?: (_hookgate_plugin_v1_Status | null);
  /**
   * RFC 6902 JSON Patch as JSON bytes, against the object the hook received. Mutating hooks only.
   */
  'patch'?: (Buffer | Uint8Array | string);
  'warnings'?: (string)[];
  'auditAnnotations'?: ({[key: string]: string});
  'sideEffects'?: (_hookgate_plugin_v1_SideEffect)[];
  /**
   * Set instead of a decision when the hook failed (AdmitStream only).
   */
  'error'?: (_hookgate_plugin_v1_HookError | null);
}

export interface AdmitResponse__Output {
  /**
   * AdmitRequest.id this answers.
   */
  'id': (number);
  /**
   * Optional echo of AdmitRequest.uid; when set, the gateway checks it as the apiserver checks
   * response.uid.
   */
  'uid': (string);
  'allowed': (boolean);
  'status': (_hookgate_plugin_v1_Status__Output | null);
  /**
   * RFC 6902 JSON Patch as JSON bytes, against the object the hook received. Mutating hooks only.
   */
  'patch': (Buffer);
  'warnings': (string)[];
  'auditAnnotations': ({[key: string]: string});
  'sideEffects': (_hookgate_plugin_v1_SideEffect__Output)[];
  /**
   * Set instead of a decision when the hook failed (AdmitStream only).
   */
  'error': (_hookgate_plugin_v1_HookError__Output | null);
}
