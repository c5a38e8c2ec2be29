/**
 * Runtime loading of the contract with @grpc/proto-loader. The options here and the generator flags
 * in scripts/codegen.ts must agree, so that the generated types describe what the loader produces.
 */
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { PROTO_DIR, PROTO_FILES } from './proto-files.js';
import type { ProtoGrpcType as PluginGrpc } from './generated/plugin.js';
import type { ProtoGrpcType as RegistryGrpc } from './generated/registry.js';
import type { ProtoGrpcType as HealthGrpc } from './generated/health.js';

/** camelCase fields, 64-bit ints as numbers, enums as their names, bytes as Buffer, defaults filled in. */
export const LOADER_OPTIONS: protoLoader.Options = Object.freeze({
  keepCase: false,
  longs: Number,
  enums: String,
  bytes: Buffer,
  defaults: true,
  oneofs: true,
  includeDirs: [PROTO_DIR],
});

export type HookgateGrpc = PluginGrpc & RegistryGrpc & HealthGrpc;

export const packageDefinition: protoLoader.PackageDefinition = protoLoader.loadSync([...PROTO_FILES], LOADER_OPTIONS);

/** The loaded packages: `grpcPackages.hookgate.plugin.v1`, `grpcPackages.grpc.health.v1`. */
export const grpcPackages = grpc.loadPackageDefinition(packageDefinition) as unknown as HookgateGrpc;
