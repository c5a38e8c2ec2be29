/**
 * The gateway's own registration with the apiserver: what it covers per phase and failure policy,
 * the admission paths of its webhooks, and the Registry's check of run-time hooks against it.
 */
export { registrationScopes, admissionPath, FAILURE_POLICIES, type PolicyScope } from './registration-scopes.js';
export {
  hooksOutsideRegistration,
  rulesOutsideRegistration,
  describeRuleOutside,
  type RuleOutside,
} from './outside-registration.js';
