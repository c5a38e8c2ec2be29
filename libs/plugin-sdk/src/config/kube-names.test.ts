import { describe, expect, it } from 'vitest';
import { validLabelValue, validQualifiedName } from './kube-names.js';

describe('validQualifiedName', () => {
  const cases: { name: string; key: string; valid: boolean }[] = [
    { name: 'a plain name', key: 'team', valid: true },
    { name: 'a prefixed name', key: 'app.kubernetes.io/name', valid: true },
    { name: 'a resource name', key: 'example.com/gpu', valid: true },
    { name: 'a 63-character name', key: 'a'.repeat(63), valid: true },
    { name: 'a 64-character name', key: 'a'.repeat(64), valid: false },
    { name: 'a space', key: 'bad key', valid: false },
    { name: 'an empty prefix', key: '/name', valid: false },
    { name: 'an upper-case prefix', key: 'Example.com/name', valid: false },
    { name: 'two slashes', key: 'a/b/c', valid: false },
    { name: 'empty', key: '', valid: false },
  ];
  for (const c of cases) {
    it(c.name, () => {
      expect(validQualifiedName(c.key)).toBe(c.valid);
    });
  }
});

describe('validLabelValue', () => {
  const cases: { name: string; value: string; valid: boolean }[] = [
    { name: 'empty', value: '', valid: true },
    { name: 'digits', value: '4711', valid: true },
    { name: 'dots, dashes and underscores inside', value: 'a.b-c_d', valid: true },
    { name: 'a trailing dash', value: 'a-', valid: false },
    { name: 'a slash', value: 'a/b', valid: false },
    { name: '64 characters', value: 'a'.repeat(64), valid: false },
  ];
  for (const c of cases) {
    it(c.name, () => {
      expect(validLabelValue(c.value)).toBe(c.valid);
    });
  }
});
