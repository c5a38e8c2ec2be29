/** The remembered key encoding answers exactly as libs/admission's encodeAnnotationsForApiserver. */
import { describe, expect, it } from 'vitest';
import { encodeAnnotationsForApiserver, mutationAnnotationKey, patchAnnotationKey } from '@hookgate/admission';
import { annotationsForApiserver } from './apiserver-annotations.js';

const CASES: Readonly<Record<string, string>>[] = [
  {},
  { [mutationAnnotationKey(0, 0)]: '{"mutated":true}', [mutationAnnotationKey(1, 2)]: '{"mutated":false}' },
  { [patchAnnotationKey(0, 1)]: '{"patch":[]}', 'pod-policy.example.com/team': 'a' },
  { [`hook.example.com/${'k'.repeat(80)}`]: 'long, hashed', 'hook.example.com/x_y': 'v', 'no-slash': 'bad' },
  // Two inner keys that encode alike: the first one wins, as in the library.
  { 'a.example.com/b_c': '1', 'a.example.com_b/c': '2' },
];

describe('annotationsForApiserver', () => {
  for (const includePatchAnnotations of [false, true]) {
    it(`matches encodeAnnotationsForApiserver, entry order included (patch annotations ${includePatchAnnotations ? 'on' : 'off'})`, () => {
      for (const annotations of CASES) {
        for (let pass = 0; pass < 2; pass++) {
          // The second pass answers from the remembered keys.
          const ours = annotationsForApiserver(annotations, { includePatchAnnotations });
          const library = encodeAnnotationsForApiserver(annotations, { includePatchAnnotations });
          expect(Object.entries(ours)).toEqual(Object.entries(library));
        }
      }
    });
  }
});
