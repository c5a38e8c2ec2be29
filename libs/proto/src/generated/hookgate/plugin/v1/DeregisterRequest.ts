// Original file: proto/hookgate/plugin/v1/registry.proto


export interface DeregisterRequest {
  'plugin'?: (string);
}

export interface DeregisterRequest__Output {
  'plugin': (string);
}
