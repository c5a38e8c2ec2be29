import { HG_ERR_GATEWAY_BAD_REQUEST, isHookgateError } from '@hookgate/errors';
import { describe, expect, it } from 'vitest';
import { badRequest, failureStatus } from './bad-request.js';

describe('badRequest', () => {
  it('is the catalogued error fastify answers as a 400', () => {
    const error = badRequest('request body is not valid JSON');
    expect(isHookgateError(error, HG_ERR_GATEWAY_BAD_REQUEST.code)).toBe(true);
    expect({ name: error.name, statusCode: error.statusCode, message: error.message }).toEqual({
      name: 'BadRequestError',
      statusCode: 400,
      message: 'request body is not valid JSON',
    });
  });
});

describe('failureStatus', () => {
  it('carries the code as the reason of its one cause', () => {
    expect(failureStatus(400, 'BadRequest', 'bad', HG_ERR_GATEWAY_BAD_REQUEST.code)).toEqual({
      apiVersion: 'v1',
      kind: 'Status',
      metadata: {},
      status: 'Failure',
      message: 'bad',
      reason: 'BadRequest',
      code: 400,
      details: { causes: [{ reason: 'HG_ERR_GATEWAY_BAD_REQUEST', message: 'bad' }] },
    });
  });
});
