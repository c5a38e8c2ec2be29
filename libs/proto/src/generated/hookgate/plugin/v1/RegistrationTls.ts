// Original file: proto/hookgate/plugin/v1/registry.proto


/**
 * Public material only: no private key travels over the registry. A client certificate, when the
 * plugin asks for one (mTLS), comes from the caller's own configuration, never from a registration.
 */
export interface RegistrationTls {
  /**
   * PEM bundle of the CA certificate(s) that sign the plugin's serving certificate. Required.
   */
  'caPem'?: (Buffer | Uint8Array | string);
  /**
   * The name to verify in the plugin's certificate when it differs from the target's host.
   */
  'serverName'?: (string);
}

/**
 * Public material only: no private key travels over the registry. A client certificate, when the
 * plugin asks for one (mTLS), comes from the caller's own configuration, never from a registration.
 */
export interface RegistrationTls__Output {
  /**
   * PEM bundle of the CA certificate(s) that sign the plugin's serving certificate. Required.
   */
  'caPem': (Buffer);
  /**
   * The name to verify in the plugin's certificate when it differs from the target's host.
   */
  'serverName': (string);
}
