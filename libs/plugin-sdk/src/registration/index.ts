// Public surface of registration/: re-exports only.
export {
  registerWithGateway,
  RegistrationRefusedError,
  type RegisterWithGatewayOptions,
  type GatewayRegistration,
  type RegistrationResult,
  type RegistrationTlsOptions,
  type RegistrationState as GatewayRegistrationState,
} from './register-with-gateway.js';
export { SelfRegistration, type SelfRegistrationOptions, type SelfRegistrationState } from './self-registration.js';
export type { BackoffSettings } from './backoff.js';
