import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Root of the .proto tree (the include directory for protoc and proto-loader). */
export const PROTO_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'proto');

/** Proto files, relative to PROTO_DIR. */
export const PLUGIN_PROTO = 'hookgate/plugin/v1/plugin.proto';
export const REGISTRY_PROTO = 'hookgate/plugin/v1/registry.proto';
export const HEALTH_PROTO = 'grpc/health/v1/health.proto';
export const PROTO_FILES: readonly string[] = [PLUGIN_PROTO, REGISTRY_PROTO, HEALTH_PROTO];

/** Absolute paths, for tools that want files rather than an include directory. */
export const PROTO_PATHS = {
  plugin: path.join(PROTO_DIR, PLUGIN_PROTO),
  registry: path.join(PROTO_DIR, REGISTRY_PROTO),
  health: path.join(PROTO_DIR, HEALTH_PROTO),
} as const;
