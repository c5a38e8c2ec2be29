/**
 * The `authorizer` CEL variable (k8s library.Authz), declared so that match conditions using it
 * compile and type-check as in the apiserver. Evaluating a check needs a SubjectAccessReview
 * against the apiserver, which Hookgate does not make: `check()` is an evaluation error, so
 * the hook's failurePolicy decides (Fail → 403, Ignore → skip). Documented gap (§22).
 */
import type { Environment } from '@marcbachmann/cel-js';

export const AUTHORIZER_UNAVAILABLE =
  'authorizer checks are not supported by Hookgate (they need a SubjectAccessReview from the apiserver)';

class Authorizer {
  readonly requestResource = new ResourceCheck();
}
class PathCheck {}
class GroupCheck {}
class ResourceCheck {}
class Decision {}

const A = 'kubernetes.authorization.Authorizer';
const P = 'kubernetes.authorization.PathCheck';
const G = 'kubernetes.authorization.GroupCheck';
const R = 'kubernetes.authorization.ResourceCheck';
const D = 'kubernetes.authorization.Decision';

const unavailable = (): never => {
  throw new Error(AUTHORIZER_UNAVAILABLE);
};

/** The one authorizer value put in every activation; it holds no user data. */
export const AUTHORIZER_VALUE: unknown = Object.freeze(new Authorizer());

export function registerAuthorizer(env: Environment): Environment {
  env
    .registerType(P, PathCheck)
    .registerType(G, GroupCheck)
    .registerType(R, ResourceCheck)
    .registerType(D, Decision)
    .registerType(A, { ctor: Authorizer, fields: { requestResource: R } })
    .registerVariable('authorizer', A)
    .registerFunction(`${A}.path(string): ${P}`, () => new PathCheck())
    .registerFunction(`${A}.group(string): ${G}`, () => new GroupCheck())
    .registerFunction(`${A}.serviceAccount(string, string): ${A}`, () => new Authorizer())
    .registerFunction(`${G}.resource(string): ${R}`, () => new ResourceCheck())
    .registerFunction(`${R}.subresource(string): ${R}`, () => new ResourceCheck())
    .registerFunction(`${R}.namespace(string): ${R}`, () => new ResourceCheck())
    .registerFunction(`${R}.name(string): ${R}`, () => new ResourceCheck())
    .registerFunction(`${R}.fieldSelector(string): ${R}`, () => new ResourceCheck())
    .registerFunction(`${R}.labelSelector(string): ${R}`, () => new ResourceCheck())
    .registerFunction(`${R}.check(string): ${D}`, unavailable)
    .registerFunction(`${P}.check(string): ${D}`, unavailable)
    .registerFunction(`${D}.allowed(): bool`, unavailable)
    .registerFunction(`${D}.reason(): string`, unavailable)
    .registerFunction(`${D}.errored(): bool`, unavailable)
    .registerFunction(`${D}.error(): string`, unavailable);
  return env;
}
