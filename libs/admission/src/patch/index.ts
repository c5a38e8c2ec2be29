// Public surface of patch/: re-exports only.
export { decodePatch, applyPatch, toPatchOperations, isJsonEqual } from './json-patch.js';
export type { DecodedPatch, DecodedOperation } from './json-patch.js';
export { diffPatch } from './diff.js';
export { cloneJsonValue } from './clone-json.js';
export { redactedJsonSyntaxError } from './go-decode-errors.js';
