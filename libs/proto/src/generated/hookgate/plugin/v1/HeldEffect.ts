// Original file: proto/hookgate/plugin/v1/plugin.proto

import type { SideEffect as _hookgate_plugin_v1_SideEffect, SideEffect__Output as _hookgate_plugin_v1_SideEffect__Output } from '../../../hookgate/plugin/v1/SideEffect.js';
import type { ObjectReference as _hookgate_plugin_v1_ObjectReference, ObjectReference__Output as _hookgate_plugin_v1_ObjectReference__Output } from '../../../hookgate/plugin/v1/ObjectReference.js';
import type { Long } from '@grpc/proto-loader';

/**
 * One out-of-band effect a plugin holds.
 */
export interface HeldEffect {
  /**
   * The hook that made it.
   */
  'hook'?: (string);
  'sideEffect'?: (_hookgate_plugin_v1_SideEffect | null);
  'object'?: (_hookgate_plugin_v1_ObjectReference | null);
  /**
   * When the effect was last written, ms since the epoch. The controller leaves effects younger
   * than its admission window alone: their admission may still be in flight.
   */
  'sinceMs'?: (number | string | Long);
}

/**
 * One out-of-band effect a plugin holds.
 */
export interface HeldEffect__Output {
  /**
   * The hook that made it.
   */
  'hook': (string);
  'sideEffect': (_hookgate_plugin_v1_SideEffect__Output | null);
  'object': (_hookgate_plugin_v1_ObjectReference__Output | null);
  /**
   * When the effect was last written, ms since the epoch. The controller leaves effects younger
   * than its admission window alone: their admission may still be in flight.
   */
  'sinceMs': (number);
}
