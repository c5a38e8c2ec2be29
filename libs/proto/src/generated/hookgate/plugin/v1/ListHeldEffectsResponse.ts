// Original file: proto/hookgate/plugin/v1/plugin.proto

import type { HeldEffect as _hookgate_plugin_v1_HeldEffect, HeldEffect__Output as _hookgate_plugin_v1_HeldEffect__Output } from '../../../hookgate/plugin/v1/HeldEffect.js';

export interface ListHeldEffectsResponse {
  'effects'?: (_hookgate_plugin_v1_HeldEffect)[];
  /**
   * Empty on the last page.
   */
  'nextPageToken'?: (string);
}

export interface ListHeldEffectsResponse__Output {
  'effects': (_hookgate_plugin_v1_HeldEffect__Output)[];
  /**
   * Empty on the last page.
   */
  'nextPageToken': (string);
}
