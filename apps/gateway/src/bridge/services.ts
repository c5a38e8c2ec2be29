/**
 * Bridged webhooks' `service` references resolved through the apiserver. Importing this loads
 * client-node (apiserverServiceResolver): the gateway imports service-resolver.js lazily.
 *
 *   const services = apiserverServiceResolver(loadKubeConfig(access), { log });
 *   const bridge = createBridgeInvoker({ now, services: () => services });
 */
export { apiserverServiceResolver, type ServiceResolver, type ServiceResolverOptions } from './service-resolver.js';
export {
  serviceAddress,
  type ServiceAddress,
  type ServiceAddressResult,
  type ServiceLike,
  type ServiceRef,
} from './service-address.js';
export { unresolvedServiceLog } from './unresolved-service-log.js';
