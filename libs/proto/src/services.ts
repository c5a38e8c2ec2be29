/** Service definitions for servers, and typed client constructors. */
import type * as grpc from '@grpc/grpc-js';
import { grpcPackages } from './loader.js';
import type {
  AdmissionPluginClient,
  AdmissionPluginDefinition,
} from './generated/hookgate/plugin/v1/AdmissionPlugin.js';
import type { RegistryClient, RegistryDefinition } from './generated/hookgate/plugin/v1/Registry.js';
import type { HealthClient, HealthDefinition } from './generated/grpc/health/v1/Health.js';

const pluginV1 = grpcPackages.hookgate.plugin.v1;
const healthV1 = grpcPackages.grpc.health.v1;

export const AdmissionPluginService: AdmissionPluginDefinition = pluginV1.AdmissionPlugin.service;
export const RegistryService: RegistryDefinition = pluginV1.Registry.service;
export const HealthService: HealthDefinition = healthV1.Health.service;

/** `target`: a grpc-js address such as `unix:///run/hookgate/x.sock` or `127.0.0.1:7001`. */
export function newAdmissionPluginClient(
  target: string,
  credentials: grpc.ChannelCredentials,
  options?: grpc.ChannelOptions,
): AdmissionPluginClient {
  return new pluginV1.AdmissionPlugin(target, credentials, options);
}

export function newRegistryClient(
  target: string,
  credentials: grpc.ChannelCredentials,
  options?: grpc.ChannelOptions,
): RegistryClient {
  return new pluginV1.Registry(target, credentials, options);
}

export function newHealthClient(
  target: string,
  credentials: grpc.ChannelCredentials,
  options?: grpc.ChannelOptions,
): HealthClient {
  return new healthV1.Health(target, credentials, options);
}
