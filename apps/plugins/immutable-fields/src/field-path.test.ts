import { describe, expect, it } from 'vitest';
import { parseFieldPath, type PathSegment } from './field-path.js';

const f = (name: string): PathSegment => ({ kind: 'field', name });
const n = (index: number): PathSegment => ({ kind: 'index', index });
const any: PathSegment = { kind: 'any' };

describe('parseFieldPath', () => {
  const valid: { name: string; text: string; segments: PathSegment[] }[] = [
    { name: 'a single field', text: 'spec', segments: [f('spec')] },
    { name: 'nested fields', text: 'spec.forProvider.region', segments: [f('spec'), f('forProvider'), f('region')] },
    { name: 'a list index', text: 'spec.ports[0].port', segments: [f('spec'), f('ports'), n(0), f('port')] },
    { name: 'a wildcard', text: 'spec.containers[*].image', segments: [f('spec'), f('containers'), any, f('image')] },
    {
      name: 'a bracketed key with dots and slashes',
      text: 'metadata.labels[app.kubernetes.io/name]',
      segments: [f('metadata'), f('labels'), f('app.kubernetes.io/name')],
    },
    { name: "a single-quoted key with ']'", text: "data['a]b']", segments: [f('data'), f('a]b')] },
    { name: 'a double-quoted key', text: 'data["x.y"]', segments: [f('data'), f('x.y')] },
    { name: 'a leading bracket', text: '[0].name', segments: [n(0), f('name')] },
    { name: 'consecutive brackets', text: 'matrix[1][2]', segments: [f('matrix'), n(1), n(2)] },
    { name: 'dashes in a field name', text: 'spec.some-field', segments: [f('spec'), f('some-field')] },
  ];
  for (const c of valid) {
    it(`parses ${c.name}`, () => {
      expect(parseFieldPath(c.text)).toEqual({ ok: true, path: { text: c.text, segments: c.segments } });
    });
  }

  const invalid: { name: string; text: string; error: string }[] = [
    { name: 'an empty path', text: '', error: 'must not be empty' },
    { name: 'a leading dot', text: '.spec', error: 'misplaced . at position 0' },
    { name: 'a trailing dot', text: 'spec.', error: 'misplaced . at position 4' },
    { name: 'a double dot', text: 'spec..a', error: 'misplaced . at position 4' },
    { name: 'a dot before a bracket', text: 'spec.[0]', error: 'misplaced . at position 4' },
    { name: 'an unterminated bracket', text: 'spec.ports[0', error: 'unterminated [ at position 10' },
    { name: 'an empty bracket', text: 'spec[]', error: 'empty or invalid [] at position 4' },
    { name: 'a stray ]', text: 'spec]', error: 'unexpected "]" at position 4' },
    { name: 'text right after a bracket', text: 'a[0]b', error: 'expected . or [ after ] at position 4' },
  ];
  for (const c of invalid) {
    it(`refuses ${c.name}`, () => {
      expect(parseFieldPath(c.text)).toEqual({ ok: false, error: c.error });
    });
  }
});
