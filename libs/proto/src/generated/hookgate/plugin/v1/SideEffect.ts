// Original file: proto/hookgate/plugin/v1/plugin.proto


/**
 * An out-of-band change a hook made, to be reconciled once the request's outcome is known.
 */
export interface SideEffect {
  'kind'?: (string);
  'key'?: (string);
  'payload'?: (Buffer | Uint8Array | string);
}

/**
 * An out-of-band change a hook made, to be reconciled once the request's outcome is known.
 */
export interface SideEffect__Output {
  'kind': (string);
  'key': (string);
  'payload': (Buffer);
}
