// Public surface of registration/: re-exports only.
export {
  registrationScope,
  registrationConditions,
  outsideRegistration,
  describeShape,
  type RegistrationScope,
  type RegistrationRule,
  type ScopedHook,
} from './registration-scope.js';
export {
  PROTECTED_RESOURCES,
  namesResource,
  reachesResource,
  exclusionCondition,
  type ProtectedResource,
} from './protected-resources.js';
export { uncoveredShapes, subsumes, withoutSubsumed, type ShapeVerdict, type ExtraValues } from './rule-coverage.js';
