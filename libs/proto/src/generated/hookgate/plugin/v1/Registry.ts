// Original file: proto/hookgate/plugin/v1/registry.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { DeregisterRequest as _hookgate_plugin_v1_DeregisterRequest, DeregisterRequest__Output as _hookgate_plugin_v1_DeregisterRequest__Output } from '../../../hookgate/plugin/v1/DeregisterRequest.js';
import type { DeregisterResponse as _hookgate_plugin_v1_DeregisterResponse, DeregisterResponse__Output as _hookgate_plugin_v1_DeregisterResponse__Output } from '../../../hookgate/plugin/v1/DeregisterResponse.js';
import type { RegisterRequest as _hookgate_plugin_v1_RegisterRequest, RegisterRequest__Output as _hookgate_plugin_v1_RegisterRequest__Output } from '../../../hookgate/plugin/v1/RegisterRequest.js';
import type { RegisterResponse as _hookgate_plugin_v1_RegisterResponse, RegisterResponse__Output as _hookgate_plugin_v1_RegisterResponse__Output } from '../../../hookgate/plugin/v1/RegisterResponse.js';

export interface RegistryClient extends grpc.Client {
  Deregister(argument: _hookgate_plugin_v1_DeregisterRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_hookgate_plugin_v1_DeregisterResponse__Output>): grpc.ClientUnaryCall;
  Deregister(argument: _hookgate_plugin_v1_DeregisterRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_hookgate_plugin_v1_DeregisterResponse__Output>): grpc.ClientUnaryCall;
  Deregister(argument: _hookgate_plugin_v1_DeregisterRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_hookgate_plugin_v1_DeregisterResponse__Output>): grpc.ClientUnaryCall;
  Deregister(argument: _hookgate_plugin_v1_DeregisterRequest, callback: grpc.requestCallback<_hookgate_plugin_v1_DeregisterResponse__Output>): grpc.ClientUnaryCall;
  deregister(argument: _hookgate_plugin_v1_DeregisterRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_hookgate_plugin_v1_DeregisterResponse__Output>): grpc.ClientUnaryCall;
  deregister(argument: _hookgate_plugin_v1_DeregisterRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_hookgate_plugin_v1_DeregisterResponse__Output>): grpc.ClientUnaryCall;
  deregister(argument: _hookgate_plugin_v1_DeregisterRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_hookgate_plugin_v1_DeregisterResponse__Output>): grpc.ClientUnaryCall;
  deregister(argument: _hookgate_plugin_v1_DeregisterRequest, callback: grpc.requestCallback<_hookgate_plugin_v1_DeregisterResponse__Output>): grpc.ClientUnaryCall;
  
  Register(argument: _hookgate_plugin_v1_RegisterRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_hookgate_plugin_v1_RegisterResponse__Output>): grpc.ClientUnaryCall;
  Register(argument: _hookgate_plugin_v1_RegisterRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_hookgate_plugin_v1_RegisterResponse__Output>): grpc.ClientUnaryCall;
  Register(argument: _hookgate_plugin_v1_RegisterRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_hookgate_plugin_v1_RegisterResponse__Output>): grpc.ClientUnaryCall;
  Register(argument: _hookgate_plugin_v1_RegisterRequest, callback: grpc.requestCallback<_hookgate_plugin_v1_RegisterResponse__Output>): grpc.ClientUnaryCall;
  register(argument: _hookgate_plugin_v1_RegisterRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_hookgate_plugin_v1_RegisterResponse__Output>): grpc.ClientUnaryCall;
  register(argument: _hookgate_plugin_v1_RegisterRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_hookgate_plugin_v1_RegisterResponse__Output>): grpc.ClientUnaryCall;
  register(argument: _hookgate_plugin_v1_RegisterRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_hookgate_plugin_v1_RegisterResponse__Output>): grpc.ClientUnaryCall;
  register(argument: _hookgate_plugin_v1_RegisterRequest, callback: grpc.requestCallback<_hookgate_plugin_v1_RegisterResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface RegistryHandlers extends grpc.UntypedServiceImplementation {
  Deregister: grpc.handleUnaryCall<_hookgate_plugin_v1_DeregisterRequest__Output, _hookgate_plugin_v1_DeregisterResponse>;
  
  Register: grpc.handleUnaryCall<_hookgate_plugin_v1_RegisterRequest__Output, _hookgate_plugin_v1_RegisterResponse>;
  
}

export interface RegistryDefinition extends grpc.ServiceDefinition {
  Deregister: MethodDefinition<_hookgate_plugin_v1_DeregisterRequest, _hookgate_plugin_v1_DeregisterResponse, _hookgate_plugin_v1_DeregisterRequest__Output, _hookgate_plugin_v1_DeregisterResponse__Output>
  Register: MethodDefinition<_hookgate_plugin_v1_RegisterRequest, _hookgate_plugin_v1_RegisterResponse, _hookgate_plugin_v1_RegisterRequest__Output, _hookgate_plugin_v1_RegisterResponse__Output>
}
