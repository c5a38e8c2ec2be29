// Original file: proto/hookgate/plugin/v1/plugin.proto

import type { SideEffect as _hookgate_plugin_v1_SideEffect, SideEffect__Output as _hookgate_plugin_v1_SideEffect__Output } from '../../../hookgate/plugin/v1/SideEffect.js';
import type { Outcome as _hookgate_plugin_v1_Outcome, Outcome__Output as _hookgate_plugin_v1_Outcome__Output } from '../../../hookgate/plugin/v1/Outcome.js';
import type { AdmissionSummary as _hookgate_plugin_v1_AdmissionSummary, AdmissionSummary__Output as _hookgate_plugin_v1_AdmissionSummary__Output } from '../../../hookgate/plugin/v1/AdmissionSummary.js';

export interface ReconcileRequest {
  /**
   * The hook that reported the side effect.
   */
  'hook'?: (string);
  'sideEffect'?: (_hookgate_plugin_v1_SideEffect | null);
  'outcome'?: (_hookgate_plugin_v1_Outcome);
  /**
   * The object's current JSON, empty when it does not exist.
   */
  'object'?: (Buffer | Uint8Array | string);
  'admission'?: (_hookgate_plugin_v1_AdmissionSummary | null);
  /**
   * 1 on the first attempt.
   */
  'attempt'?: (number);
}

export interface ReconcileRequest__Output {
  /**
   * The hook that reported the side effect.
   */
  'hook': (string);
  'sideEffect': (_hookgate_plugin_v1_SideEffect__Output | null);
  'outcome': (_hookgate_plugin_v1_Outcome__Output);
  /**
   * The object's current JSON, empty when it does not exist.
   */
  'object': (Buffer);
  'admission': (_hookgate_plugin_v1_AdmissionSummary__Output | null);
  /**
   * 1 on the first attempt.
   */
  'attempt': (number);
}
