// Public surface of types/: the shared types every folder may import (this folder imports no other).
export type * from './json.js';
export type * from './review.js';
export type * from './webhook-configuration.js';
export type * from './hook.js';
export type * from './hook-failure.js';
export type * from './patch-operation.js';
export type * from './invoker.js';
export type * from './namespace-lookup.js';
