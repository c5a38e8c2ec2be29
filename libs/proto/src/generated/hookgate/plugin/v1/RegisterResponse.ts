// Original file: proto/hookgate/plugin/v1/registry.proto


export interface RegisterResponse {
  /**
   * The lease granted, in seconds.
   */
  'leaseSeconds'?: (number);
  /**
   * The hooks now served by this plugin (`<configuration>/<webhook>`).
   */
  'hooks'?: (string)[];
}

export interface RegisterResponse__Output {
  /**
   * The lease granted, in seconds.
   */
  'leaseSeconds': (number);
  /**
   * The hooks now served by this plugin (`<configuration>/<webhook>`).
   */
  'hooks': (string)[];
}
