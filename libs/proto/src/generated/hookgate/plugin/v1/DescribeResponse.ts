// Original file: proto/hookgate/plugin/v1/plugin.proto

import type { HookDescription as _hookgate_plugin_v1_HookDescription, HookDescription__Output as _hookgate_plugin_v1_HookDescription__Output } from '../../../hookgate/plugin/v1/HookDescription.js';

export interface DescribeResponse {
  'plugin'?: (string);
  'hooks'?: (_hookgate_plugin_v1_HookDescription)[];
  /**
   * The plugin serves AdmitStream: the gateway uses it instead of unary Admit.
   */
  'admitStream'?: (boolean);
  /**
   * The plugin accepts base_request + patch (see AdmitRequest).
   */
  'applyPatch'?: (boolean);
  /**
   * The plugin serves Reconcile.
   */
  'reconcile'?: (boolean);
  /**
   * Free text, e.g. "@hookgate/plugin-sdk 0.1.0".
   */
  'implementation'?: (string);
  /**
   * The plugin serves ListHeldEffects and ReconcileOrphan (periodic resync).
   */
  'resync'?: (boolean);
  /**
   * The plugin accepts batched AdmitRequests (`batch`) on AdmitStream. Requires admit_stream.
   */
  'admitBatch'?: (boolean);
}

export interface DescribeResponse__Output {
  'plugin': (string);
  'hooks': (_hookgate_plugin_v1_HookDescription__Output)[];
  /**
   * The plugin serves AdmitStream: the gateway uses it instead of unary Admit.
   */
  'admitStream': (boolean);
  /**
   * The plugin accepts base_request + patch (see AdmitRequest).
   */
  'applyPatch': (boolean);
  /**
   * The plugin serves Reconcile.
   */
  'reconcile': (boolean);
  /**
   * Free text, e.g. "@hookgate/plugin-sdk 0.1.0".
   */
  'implementation': (string);
  /**
   * The plugin serves ListHeldEffects and ReconcileOrphan (periodic resync).
   */
  'resync': (boolean);
  /**
   * The plugin accepts batched AdmitRequests (`batch`) on AdmitStream. Requires admit_stream.
   */
  'admitBatch': (boolean);
}
