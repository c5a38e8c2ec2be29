import { describe, expect, it } from 'vitest';
import type { ConfigError } from '@hookgate/config';
import { sortProblems } from './config-problems.js';

const problem = (file: string, document: number, line?: number): ConfigError => ({
  file,
  document,
  ...(line !== undefined ? { line } : {}),
  field: '',
  rule: 'FieldValueInvalid',
  message: `${file}:${line ?? '-'}`,
});

describe('sortProblems', () => {
  it('orders by file, then line (unlocated first), then document, keeping equal ones in place', () => {
    const sorted = sortProblems([
      problem('b.yaml', 1, 3),
      problem('a.yaml', 2, 14),
      problem('a.yaml', 1, 8),
      problem('/etc/hookgate', 0),
      problem('a.yaml', 1),
    ]);
    expect(sorted.map((p) => p.message)).toEqual(['/etc/hookgate:-', 'a.yaml:-', 'a.yaml:8', 'a.yaml:14', 'b.yaml:3']);
  });
});
