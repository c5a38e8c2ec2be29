// Original file: proto/hookgate/plugin/v1/plugin.proto

import type { HeldEffect as _hookgate_plugin_v1_HeldEffect, HeldEffect__Output as _hookgate_plugin_v1_HeldEffect__Output } from '../../../hookgate/plugin/v1/HeldEffect.js';

export interface ReconcileOrphanRequest {
  'held'?: (_hookgate_plugin_v1_HeldEffect | null);
  /**
   * "absent": no object under the name; "replaced": an object of another uid.
   */
  'reason'?: (string);
  /**
   * The uid of the object found under the name, when replaced.
   */
  'observedUid'?: (string);
}

export interface ReconcileOrphanRequest__Output {
  'held': (_hookgate_plugin_v1_HeldEffect__Output | null);
  /**
   * "absent": no object under the name; "replaced": an object of another uid.
   */
  'reason': (string);
  /**
   * The uid of the object found under the name, when replaced.
   */
  'observedUid': (string);
}
