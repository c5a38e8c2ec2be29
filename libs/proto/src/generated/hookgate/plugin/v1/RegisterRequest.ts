// Original file: proto/hookgate/plugin/v1/registry.proto


export interface RegisterRequest {
  /**
   * The plugin name that webhooks reference as `clientConfig.plugin`.
   */
  'plugin'?: (string);
  /**
   * Where the gateway calls the plugin: `unix:///run/hookgate/x.sock` or `host:port`.
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
}

export interface RegisterRequest__Output {
  /**
   * The plugin name that webhooks reference as `clientConfig.plugin`.
   */
  'plugin': (string);
  /**
   * Where the gateway calls the plugin: `unix:///run/hookgate/x.sock` or `host:port`.
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
}
