// Original file: proto/hookgate/plugin/v1/plugin.proto

import type { Phase as _hookgate_plugin_v1_Phase, Phase__Output as _hookgate_plugin_v1_Phase__Output } from '../../../hookgate/plugin/v1/Phase.js';

export interface HookDescription {
  'name'?: (string);
  'phase'?: (_hookgate_plugin_v1_Phase);
}

export interface HookDescription__Output {
  'name': (string);
  'phase': (_hookgate_plugin_v1_Phase__Output);
}
