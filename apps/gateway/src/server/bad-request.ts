/**
 * Every client-side problem with an admission request becomes a 400 with a message that says what
 * was wrong (fastify's own 413/415 included), so the apiserver logs something a person can act on.
 * Error bodies are metav1.Status objects: the apiserver shows a Status's message in its error
 * (k8s-semantics §15) and replaces any other body with a generic text.
 */
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance } from 'fastify';
import {
  HG_ERR_GATEWAY_BAD_REQUEST,
  HG_ERR_GATEWAY_CLIENT,
  HG_ERR_GATEWAY_INTERNAL,
  HG_ERR_GATEWAY_METHOD,
  HG_ERR_GATEWAY_NOT_FOUND,
} from '@hookgate/errors';
import { FAILURE_POLICIES, admissionPath } from '../registration/index.js';

/** A metav1.Status failure; Hookgate's own error code travels as the cause's reason. */
export function failureStatus(code: number, reason: string, message: string, hookgateCode: string) {
  return {
    apiVersion: 'v1',
    kind: 'Status',
    metadata: {},
    status: 'Failure',
    message,
    reason,
    code,
    details: { causes: [{ reason: hookgateCode, message }] },
  };
}

/** A request the gateway cannot use; fastify answers it through the error handler below as a 400. */
export class BadRequestError extends HG_ERR_GATEWAY_BAD_REQUEST {
  override readonly name = 'BadRequestError';
  readonly statusCode = 400 as const;
}

export function badRequest(message: string): BadRequestError {
  return new BadRequestError(message);
}

/** fastify's client-error codes, reworded for an apiserver operator. */
const CLIENT_ERRORS: Readonly<Record<string, (error: FastifyError) => string>> = {
  FST_ERR_CTP_BODY_TOO_LARGE: () => 'request body is larger than the configured limit (bodyLimit)',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () => 'unsupported content type: send the AdmissionReview as application/json',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () => 'request body length does not match Content-Length',
  FST_ERR_CTP_EMPTY_JSON_BODY: () => 'request body is empty: expected an AdmissionReview JSON document',
  FST_ERR_CTP_INVALID_TYPE: () => 'missing or invalid content type: send the AdmissionReview as application/json',
};

/**
 * Client errors → 400 Status; anything else is a defect: logged with the request id, answered 500
 * without details (the apiserver then applies the gateway registration's own failurePolicy).
 */
const ADMISSION_PATHS = new Set([
  '/mutate',
  '/validate',
  ...FAILURE_POLICIES.flatMap((p) => [admissionPath('mutating', p), admissionPath('validating', p)]),
]);

export function registerErrorHandler(app: FastifyInstance): void {
  // Unknown paths and methods get a Status naming what is served, not fastify's own body.
  app.setNotFoundHandler((request, reply) => {
    const path = (request.url.split('?')[0] ?? '').slice(0, 200);
    const served =
      'the gateway serves POST /mutate and POST /validate (and /mutate/fail, /mutate/ignore, /validate/fail, /validate/ignore for its registration)';
    if (ADMISSION_PATHS.has(path)) {
      return reply
        .code(405)
        .header('allow', 'POST')
        .send(
          failureStatus(
            405,
            'MethodNotAllowed',
            `${request.method} ${path} is not allowed: ${served}`,
            HG_ERR_GATEWAY_METHOD.code,
          ),
        );
    }
    return reply
      .code(404)
      .send(
        failureStatus(404, 'NotFound', `no endpoint ${JSON.stringify(path)}: ${served}`, HG_ERR_GATEWAY_NOT_FOUND.code),
      );
  });
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const reword = error.code === undefined ? undefined : CLIENT_ERRORS[error.code];
    if (reword !== undefined || error.statusCode === 400) {
      const message = reword ? reword(error) : error.message;
      // Flat fields: pino's err serializer would turn this plain object into an empty-stack pseudo-error.
      request.log.warn({ code: 400, errorCode: error.code, error: message }, 'bad admission request');
      return reply.code(400).send(failureStatus(400, 'BadRequest', message, HG_ERR_GATEWAY_BAD_REQUEST.code));
    }
    if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
      return reply
        .code(error.statusCode)
        .send(failureStatus(error.statusCode, 'BadRequest', error.message, error.code ?? HG_ERR_GATEWAY_CLIENT.code));
    }
    request.log.error({ err: error }, 'internal error while handling an admission request');
    return reply
      .code(500)
      .send(
        failureStatus(
          500,
          'InternalError',
          'internal error in hookgate; see the gateway log',
          HG_ERR_GATEWAY_INTERNAL.code,
        ),
      );
  });
}

/**
 * Errors Node's HTTP parser raises before a request exists (a timeout, malformed HTTP, oversized
 * headers): answered on the raw socket with a Status like every other error, then closed.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [code, reason, text, message] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'Timeout', 'Request Timeout', 'the request did not arrive in time; the connection is closed']
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'BadRequest', 'Request Header Fields Too Large', 'the request headers are too large']
        : [400, 'BadRequest', 'Bad Request', 'the request is not valid HTTP/1.1'];
  const body = JSON.stringify(failureStatus(code, reason, message, HG_ERR_GATEWAY_CLIENT.code));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${code} ${text}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
