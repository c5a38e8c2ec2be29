import { describe, expect, it } from 'vitest';
import { patchedObjectProblem } from './patched-object.js';

const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' } };
const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' } };

describe('patchedObjectProblem', () => {
  it.each([
    ['labels changed', pod, { ...pod, metadata: { name: 'p', labels: { a: 'b' } } }],
    ['another version of the same group and kind', deployment, { ...deployment, apiVersion: 'apps/v1beta2' }],
    ['kind and apiVersion removed: the decoder defaults them from the type', pod, { metadata: { name: 'p' } }],
    [
      'an original without apiVersion and kind holds nothing against the patch',
      { metadata: {} },
      { apiVersion: 'v1', kind: 'Pod', metadata: {} },
    ],
    [
      'a custom resource keeps its kind',
      { apiVersion: 'example.com/v1', kind: 'Widget' },
      { apiVersion: 'example.com/v1', kind: 'Widget', spec: {} },
    ],
  ])('accepts: %s', (_name, before, after) => expect(patchedObjectProblem(before, after)).toBeUndefined());

  it.each([
    [
      'kind changed',
      pod,
      { ...pod, kind: 'Service' },
      'the patched object is a "v1", Kind="Service", not the "v1", Kind="Pod" the request is for',
    ],
    [
      'group changed',
      deployment,
      { ...deployment, apiVersion: 'extensions/v1beta1' },
      'the patched object is a "extensions/v1beta1", Kind="Deployment", not the "apps/v1", Kind="Deployment" the request is for',
    ],
    ['root replaced by a number', pod, 7, 'cannot unmarshal number into Go value of type struct {'],
    ['root replaced by a list', pod, [], 'cannot unmarshal array into Go value of type struct {'],
  ])('refuses: %s', (_name, before, after, text) => expect(patchedObjectProblem(before, after)).toContain(text));
});
