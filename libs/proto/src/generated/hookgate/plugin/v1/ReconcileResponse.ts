// Original file: proto/hookgate/plugin/v1/plugin.proto


export interface ReconcileResponse {
  /**
   * True when the side effect needs no further work.
   */
  'done'?: (boolean);
  'message'?: (string);
  /**
   * When not done: retry after this delay (ms); 0 lets the controller choose its backoff.
   */
  'retryAfterMs'?: (number);
}

export interface ReconcileResponse__Output {
  /**
   * True when the side effect needs no further work.
   */
  'done': (boolean);
  'message': (string);
  /**
   * When not done: retry after this delay (ms); 0 lets the controller choose its backoff.
   */
  'retryAfterMs': (number);
}
