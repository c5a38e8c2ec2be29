// Original file: proto/hookgate/plugin/v1/registry.proto


export interface DeregisterResponse {
  /**
   * The hooks removed.
   */
  'hooks'?: (string)[];
}

export interface DeregisterResponse__Output {
  /**
   * The hooks removed.
   */
  'hooks': (string)[];
}
