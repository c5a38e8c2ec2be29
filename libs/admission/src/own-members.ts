/**
 * Reading and writing untrusted JSON objects member by member, with no prototype in play: a member
 * named `__proto__` (JSON.parse makes it an own data member) stays data on both sides, and nothing
 * inherited ever stands in for a member that is absent.
 */

/** A JSON object: not null, not an array. */
export const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The member `key` of `value` if it is an own member of an object; undefined otherwise. */
export function ownMember(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null && Object.hasOwn(value, key)
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

/** `target[key] = value` as a data member, even for `__proto__` (a plain assignment would set the prototype). */
export function setOwnMember<T>(target: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
