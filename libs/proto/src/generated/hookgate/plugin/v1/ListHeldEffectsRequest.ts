// Original file: proto/hookgate/plugin/v1/plugin.proto


export interface ListHeldEffectsRequest {
  /**
   * Empty for the first page; then the previous answer's next_page_token.
   */
  'pageToken'?: (string);
  /**
   * At most this many effects per answer (the plugin may send fewer).
   */
  'pageSize'?: (number);
}

export interface ListHeldEffectsRequest__Output {
  /**
   * Empty for the first page; then the previous answer's next_page_token.
   */
  'pageToken': (string);
  /**
   * At most this many effects per answer (the plugin may send fewer).
   */
  'pageSize': (number);
}
