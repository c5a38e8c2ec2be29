/** Registry gRPC handlers: decode, ask the store, map its refusals to gRPC status codes. */
import { status as GrpcStatus } from '@grpc/grpc-js';
import type { RegistryHandlers } from '@hookgate/proto';
import type { RegistryLogger } from './logger.js';
import type { RegistrationStore } from './registration-store.js';
import type { RegistryRefusal } from './types.js';

const STATUS_OF: Readonly<Record<RegistryRefusal['kind'], GrpcStatus>> = {
  invalid: GrpcStatus.INVALID_ARGUMENT,
  conflict: GrpcStatus.ALREADY_EXISTS,
  static: GrpcStatus.FAILED_PRECONDITION,
  'not-found': GrpcStatus.NOT_FOUND,
  'outside-registration': GrpcStatus.FAILED_PRECONDITION,
};

/** Told about every refused Register or Deregister (for a metric); the handlers log them already. */
export type RefusalListener = (operation: 'register' | 'deregister', refusal: RegistryRefusal, plugin: string) => void;

export function registryHandlers(
  store: RegistrationStore,
  logger: RegistryLogger,
  onRefused?: RefusalListener,
): RegistryHandlers {
  return {
    Register(call, callback) {
      const request = call.request;
      const result = store.register({
        plugin: request.plugin,
        target: request.target,
        configurations: request.configurations,
        leaseSeconds: request.leaseSeconds,
        // proto3 leaves an unset message null; an empty one (no CA) is refused as a missing CA.
        ...(request.tls === null || request.tls === undefined
          ? {}
          : { tls: { caPem: request.tls.caPem, serverName: request.tls.serverName } }),
      });
      if (!result.ok) {
        logger.warn(
          {
            plugin: request.plugin,
            target: request.target,
            refusal: result.error.kind,
            problems: result.error.problems,
          },
          'registration refused',
        );
        onRefused?.('register', result.error, request.plugin);
        return callback({ code: STATUS_OF[result.error.kind], details: result.error.message });
      }
      const outcome = result.value;
      const fields = {
        plugin: outcome.plugin,
        target: request.target,
        tls: request.tls !== null && request.tls !== undefined,
        hooks: outcome.hooks,
        leaseSeconds: outcome.leaseSeconds,
        change: outcome.change,
      };
      if (outcome.change === 'renewed') logger.debug(fields, 'registration renewed');
      else
        logger.info(
          fields,
          outcome.change === 'new'
            ? 'plugin registered'
            : 'plugin registered again; its previous registration is replaced',
        );
      callback(null, { leaseSeconds: outcome.leaseSeconds, hooks: [...outcome.hooks] });
    },

    Deregister(call, callback) {
      const result = store.deregister(call.request.plugin);
      if (!result.ok) {
        logger.warn({ plugin: call.request.plugin, refusal: result.error.kind }, 'deregistration refused');
        onRefused?.('deregister', result.error, call.request.plugin);
        return callback({ code: STATUS_OF[result.error.kind], details: result.error.message });
      }
      logger.info(
        { plugin: result.value.plugin, hooks: result.value.hooks },
        'plugin deregistered; its hooks are removed',
      );
      callback(null, { hooks: [...result.value.hooks] });
    },
  };
}
