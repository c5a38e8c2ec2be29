/** Service definitions for servers, and typed client constructors. */
import * as grpc from '@grpc/grpc-js';
import { decodeAdmitRequest, decodeAdmitResponse, encodeAdmitRequest, encodeAdmitResponse } from './admit-codec.js';
import { grpcPackages } from './loader.js';
import type {
  AdmissionPluginClient,
  AdmissionPluginDefinition,
} from './generated/hookgate/plugin/v1/AdmissionPlugin.js';
import type { RegistryClient, RegistryDefinition } from './generated/hookgate/plugin/v1/Registry.js';
import type { HealthClient, HealthDefinition } from './generated/grpc/health/v1/Health.js';

const pluginV1 = grpcPackages.hookgate.plugin.v1;
const healthV1 = grpcPackages.grpc.health.v1;

/**
 * The hook calls (Admit, AdmitStream) use the hand-written codec of admit-codec.ts: the same bytes
 * and the same objects as proto-loader's, for less CPU per message. The other methods keep
 * proto-loader's.
 */
const loadedPlugin: AdmissionPluginDefinition = pluginV1.AdmissionPlugin.service;
const ADMIT_CODEC = {
  requestSerialize: encodeAdmitRequest,
  requestDeserialize: decodeAdmitRequest,
  responseSerialize: encodeAdmitResponse,
  responseDeserialize: decodeAdmitResponse,
};

export const AdmissionPluginService: AdmissionPluginDefinition = {
  ...loadedPlugin,
  Admit: { ...loadedPlugin.Admit, ...ADMIT_CODEC },
  AdmitStream: { ...loadedPlugin.AdmitStream, ...ADMIT_CODEC },
};

const AdmissionPluginClientConstructor = grpc.makeClientConstructor(
  AdmissionPluginService as unknown as grpc.ServiceDefinition,
  'hookgate.plugin.v1.AdmissionPlugin',
);

export const RegistryService: RegistryDefinition = pluginV1.Registry.service;
export const HealthService: HealthDefinition = healthV1.Health.service;

/** `target`: a grpc-js address such as `unix:///run/hookgate/x.sock` or `127.0.0.1:7001`. */
export function newAdmissionPluginClient(
  target: string,
  credentials: grpc.ChannelCredentials,
  options?: grpc.ChannelOptions,
): AdmissionPluginClient {
  return new AdmissionPluginClientConstructor(target, credentials, options) as unknown as AdmissionPluginClient;
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
