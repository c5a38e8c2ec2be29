/**
 * The one shape of every error Hookgate throws on purpose: a catalogued `code`, a `message` that
 * says what happened to what, the `remedy` an operator can act on, and the `cause` when it wraps a
 * foreign error (fastify's errors, with the "what to do" of docs/errors.md carried along).
 */

/** `HG_ERR_<AREA>_<WHAT>`, as fastify's `FST_ERR_<AREA>_<WHAT>`. */
export type HookgateErrorCode = `HG_ERR_${string}`;

export class HookgateError<C extends HookgateErrorCode = HookgateErrorCode> extends Error {
  override name = 'HookgateError';
  readonly code: C;
  /** What to do about it, as docs/errors.md says. */
  readonly remedy: string;

  constructor(code: C, message: string, remedy: string, options?: { readonly cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.remedy = remedy;
  }
}

/**
 * True for an error of the Hookgate shape, optionally with one code. Checks the fields, not the
 * class: two copies of a package (or another realm) give two classes, the code stays the same.
 */
export function isHookgateError<C extends HookgateErrorCode = HookgateErrorCode>(
  error: unknown,
  code?: C,
): error is HookgateError<C> {
  if (!(typeof error === 'object' && error !== null)) return false;
  const { code: actual, remedy, message } = error as Record<string, unknown>;
  return (
    typeof actual === 'string' &&
    actual.startsWith('HG_ERR_') &&
    typeof remedy === 'string' &&
    typeof message === 'string' &&
    (code === undefined || actual === code)
  );
}
