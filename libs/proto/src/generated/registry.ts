import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { DeregisterRequest as _hookgate_plugin_v1_DeregisterRequest, DeregisterRequest__Output as _hookgate_plugin_v1_DeregisterRequest__Output } from './hookgate/plugin/v1/DeregisterRequest.js';
import type { DeregisterResponse as _hookgate_plugin_v1_DeregisterResponse, DeregisterResponse__Output as _hookgate_plugin_v1_DeregisterResponse__Output } from './hookgate/plugin/v1/DeregisterResponse.js';
import type { RegisterRequest as _hookgate_plugin_v1_RegisterRequest, RegisterRequest__Output as _hookgate_plugin_v1_RegisterRequest__Output } from './hookgate/plugin/v1/RegisterRequest.js';
import type { RegisterResponse as _hookgate_plugin_v1_RegisterResponse, RegisterResponse__Output as _hookgate_plugin_v1_RegisterResponse__Output } from './hookgate/plugin/v1/RegisterResponse.js';
import type { RegistrationTls as _hookgate_plugin_v1_RegistrationTls, RegistrationTls__Output as _hookgate_plugin_v1_RegistrationTls__Output } from './hookgate/plugin/v1/RegistrationTls.js';
import type { RegistryClient as _hookgate_plugin_v1_RegistryClient, RegistryDefinition as _hookgate_plugin_v1_RegistryDefinition } from './hookgate/plugin/v1/Registry.js';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  hookgate: {
    plugin: {
      v1: {
        DeregisterRequest: MessageTypeDefinition<_hookgate_plugin_v1_DeregisterRequest, _hookgate_plugin_v1_DeregisterRequest__Output>
        DeregisterResponse: MessageTypeDefinition<_hookgate_plugin_v1_DeregisterResponse, _hookgate_plugin_v1_DeregisterResponse__Output>
        RegisterRequest: MessageTypeDefinition<_hookgate_plugin_v1_RegisterRequest, _hookgate_plugin_v1_RegisterRequest__Output>
        RegisterResponse: MessageTypeDefinition<_hookgate_plugin_v1_RegisterResponse, _hookgate_plugin_v1_RegisterResponse__Output>
        RegistrationTls: MessageTypeDefinition<_hookgate_plugin_v1_RegistrationTls, _hookgate_plugin_v1_RegistrationTls__Output>
        Registry: SubtypeConstructor<typeof grpc.Client, _hookgate_plugin_v1_RegistryClient> & { service: _hookgate_plugin_v1_RegistryDefinition }
      }
    }
  }
}

