import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdmissionRequest } from '@hookgate/admission';
import { admit, admitMessage, admitStream, parseJson, reconcile } from './grpc-calls.js';
import { serveOnUnixSocket, type ServedPlugin } from './served-plugin.js';
import { buildTeamLabelPlugin, MUTATING_HOOK, VALIDATING_HOOK } from './fixtures/team-label-plugin.js';
import { podRequest } from '../../test/fixtures.js';

const pod = (image: string): AdmissionRequest['object'] => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web-0', namespace: 'shop' },
  spec: { containers: [{ name: 'web', image }] },
});
const request = (uid: string, image: string): AdmissionRequest => podRequest({ uid, object: pod(image) });

describe('serveOnUnixSocket and the gRPC calls', () => {
  let served: ServedPlugin;
  beforeAll(async () => {
    served = await serveOnUnixSocket(buildTeamLabelPlugin('shop'));
  });
  afterAll(async () => {
    await served.close();
  });

  it('serves on a unix socket in a temp dir', () => {
    expect(served.server.target).toMatch(/^unix:\/\/.*hookgate-team-label-.*\/plugin\.sock$/);
  });

  it('admit: a mutating answer carries the JSON Patch and the side effect', async () => {
    const response = await admit(served.client, admitMessage(MUTATING_HOOK, 'MUTATING', request('u1', 'nginx:1.27')));
    expect(response).toMatchObject({ uid: 'u1', allowed: true });
    expect(parseJson(response.patch)).toEqual([{ op: 'add', path: '/metadata/labels', value: { team: 'shop' } }]);
    expect(response.sideEffects.map((s) => [s.kind, s.key, parseJson(s.payload)])).toEqual([
      ['labelled', 'shop/web-0', { team: 'shop' }],
    ]);
  });

  it('admitStream: every answer, by id', async () => {
    const answers = await admitStream(served.client, [
      admitMessage(VALIDATING_HOOK, 'VALIDATING', request('a', 'nginx:1.27')),
      admitMessage(VALIDATING_HOOK, 'VALIDATING', request('b', 'nginx:latest')),
    ]);
    expect([...answers.entries()].sort(([x], [y]) => x - y).map(([id, r]) => [id, r.uid, r.allowed])).toEqual([
      [1, 'a', true],
      [2, 'b', false],
    ]);
    expect(answers.get(2)?.status?.message).toBe('pin images to a version, not :latest');
  });

  it('reconcile: the plugin answer', async () => {
    const answer = await reconcile(served.client, {
      hook: MUTATING_HOOK,
      sideEffect: { kind: 'labelled', key: 'shop/web-0', payload: Buffer.from('{"team":"shop"}') },
      outcome: 'PERSISTED',
      object: Buffer.alloc(0),
      admission: {
        uid: 'u1',
        operation: 'CREATE',
        group: '',
        version: 'v1',
        resource: 'pods',
        namespace: 'shop',
        name: 'web-0',
        allowed: true,
      },
      attempt: 1,
    });
    expect(answer).toEqual({ done: true, message: 'shop/web-0: PERSISTED', retryAfterMs: 0 });
  });

  it('parseJson reads empty bytes as undefined', () => {
    expect(parseJson(Buffer.alloc(0))).toBeUndefined();
  });
});
