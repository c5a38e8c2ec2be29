// Original file: proto/hookgate/plugin/v1/registry.proto

import type { RegistrationTls as _hookgate_plugin_v1_RegistrationTls, RegistrationTls__Output as _hookgate_plugin_v1_RegistrationTls__Output } from '../../../hookgate/plugin/v1/RegistrationTls.js';

export interface RegisterRequest {
  /**
   * The plugin name that webhooks reference as `clientConfig.plugin`.
   */
  'plugin'?: (string);
  /**
   * Where the gateway calls the plugin: `unix:///run/hookgate/x.sock` or `host:port`. A `host:port`
   * target needs `tls` unless its host is a loopback address (127.0.0.0/8, ::1).
   */
  'target'?: (string);
  /**
   * Mutating/ValidatingWebhookConfiguration documents (YAML, possibly multi-document, or JSON),
   * validated exactly as static configuration files are.
   */
  'configurations'?: (Buffer | Uint8Array | string)[];
  /**
   * Requested lease; the plugin renews by registering again before it ends. 0 = the gateway's default.
   */
  'leaseSeconds'?: (number);
  /**
   * How the gateway (and the reconciliation controller) verify the plugin's serving certificate on a
   * `host:port` target. Unset: plaintext, accepted only for unix sockets and loopback addresses.
   */
  'tls'?: (_hookgate_plugin_v1_RegistrationTls | null);
}

export interface RegisterRequest__Output {
  /**
   * The plugin name that webhooks reference as `clientConfig.plugin`.
   */
  'plugin': (string);
  /**
   * Where the gateway calls the plugin: `unix:///run/hookgate/x.sock` or `host:port`. A `host:port`
   * target needs `tls` unless its host is a loopback address (127.0.0.0/8, ::1).
   */
  'target': (string);
  /**
   * Mutating/ValidatingWebhookConfiguration documents (YAML, possibly multi-document, or JSON),
   * validated exactly as static configuration files are.
   */
  'configurations': (Buffer)[];
  /**
   * Requested lease; the plugin renews by registering again before it ends. 0 = the gateway's default.
   */
  'leaseSeconds': (number);
  /**
   * How the gateway (and the reconciliation controller) verify the plugin's serving certificate on a
   * `host:port` target. Unset: plaintext, accepted only for unix sockets and loopback addresses.
   */
  'tls': (_hookgate_plugin_v1_RegistrationTls__Output | null);
}
