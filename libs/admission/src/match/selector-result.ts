/**
 * What the namespace and object matchers return, like the apiserver's (bool, *StatusError):
 * an error does not reject by itself; shouldCallHook reports it only if the hook's rules match (§3).
 */
import type { Status } from '../types/review.js';

export type SelectorResult = { readonly matches: true } | { readonly matches: false; readonly error?: Status };

export const SELECTOR_MATCHES: SelectorResult = Object.freeze({ matches: true });
export const SELECTOR_NO_MATCH: SelectorResult = Object.freeze({ matches: false });
export const selectorError = (error: Status): SelectorResult => ({ matches: false, error });
