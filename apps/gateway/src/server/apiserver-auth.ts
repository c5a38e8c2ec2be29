/**
 * Optional authentication of the apiserver on the admission listener: a client certificate signed by
 * the configured client CA, and/or a bearer token (the apiserver's kubeconfig for webhooks offers both).
 * With both configured, either one is enough. Failures are 401 and are logged without the token.
 */
import { timingSafeEqual } from 'node:crypto';
import type { TLSSocket } from 'node:tls';
import type { FastifyInstance } from 'fastify';
import { HG_ERR_GATEWAY_UNAUTHENTICATED } from '@hookgate/errors';
import { failureStatus } from './bad-request.js';

export interface ApiserverAuthOptions {
  /** Accept TLS clients whose certificate verifies against the listener's client CA. */
  readonly clientCertificates: boolean;
  /** Accepted bearer tokens (from a file the operator controls); empty = no token auth. */
  readonly bearerTokens: () => readonly string[];
}

export function registerApiserverAuth(app: FastifyInstance, options: ApiserverAuthOptions): void {
  const tokensOn = () => options.bearerTokens().length > 0;
  if (!options.clientCertificates && !tokensOn()) return;
  app.addHook('onRequest', async (request, reply) => {
    if (options.clientCertificates && (request.raw.socket as TLSSocket).authorized === true) return;
    const token = bearerToken(request.headers.authorization);
    if (token !== undefined && options.bearerTokens().some((t) => safeEqual(t, token))) return;
    request.log.warn(
      {
        remoteAddress: request.ip,
        method: request.method,
        url: request.url,
        presented: token === undefined ? 'nothing' : 'unknown bearer token',
      },
      'unauthenticated admission request refused: the apiserver must present a client certificate from the client CA or a configured bearer token',
    );
    return reply
      .code(401)
      .send(
        failureStatus(
          401,
          'Unauthorized',
          'authentication required: present a client certificate or a bearer token',
          HG_ERR_GATEWAY_UNAUTHENTICATED.code,
        ),
      );
  });
}

function bearerToken(header: string | undefined): string | undefined {
  const match = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

function safeEqual(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
