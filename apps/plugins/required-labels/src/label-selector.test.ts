import { describe, expect, it } from 'vitest';
import type { LabelSelector } from '@hookgate/admission';
import { matchesSelector } from './label-selector.js';

const labels = { tier: 'prod', team: 'payments' };

describe('matchesSelector', () => {
  const cases: { name: string; selector: LabelSelector; labels?: Record<string, string>; matches: boolean }[] = [
    {
      name: 'the empty selector matches everything',
      selector: { matchLabels: {}, matchExpressions: [] },
      matches: true,
    },
    {
      name: 'the empty selector matches no labels',
      selector: { matchLabels: {}, matchExpressions: [] },
      labels: {},
      matches: true,
    },
    {
      name: 'matchLabels pair present',
      selector: { matchLabels: { tier: 'prod' }, matchExpressions: [] },
      matches: true,
    },
    {
      name: 'matchLabels pair with another value',
      selector: { matchLabels: { tier: 'dev' }, matchExpressions: [] },
      matches: false,
    },
    { name: 'matchLabels key absent', selector: { matchLabels: { owner: 'x' }, matchExpressions: [] }, matches: false },
    {
      name: 'In with the value',
      selector: { matchLabels: {}, matchExpressions: [{ key: 'tier', operator: 'In', values: ['prod', 'staging'] }] },
      matches: true,
    },
    {
      name: 'In with the key absent',
      selector: { matchLabels: {}, matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] },
      matches: false,
    },
    {
      name: 'NotIn with the value',
      selector: { matchLabels: {}, matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['prod'] }] },
      matches: false,
    },
    {
      name: 'NotIn with the key absent matches',
      selector: { matchLabels: {}, matchExpressions: [{ key: 'zone', operator: 'NotIn', values: ['a'] }] },
      matches: true,
    },
    {
      name: 'Exists',
      selector: { matchLabels: {}, matchExpressions: [{ key: 'team', operator: 'Exists', values: [] }] },
      matches: true,
    },
    {
      name: 'Exists on no labels',
      selector: { matchLabels: {}, matchExpressions: [{ key: 'team', operator: 'Exists', values: [] }] },
      labels: {},
      matches: false,
    },
    {
      name: 'DoesNotExist',
      selector: { matchLabels: {}, matchExpressions: [{ key: 'team', operator: 'DoesNotExist', values: [] }] },
      matches: false,
    },
    {
      name: 'DoesNotExist on no labels',
      selector: { matchLabels: {}, matchExpressions: [{ key: 'team', operator: 'DoesNotExist', values: [] }] },
      labels: {},
      matches: true,
    },
    {
      name: 'all terms are ANDed',
      selector: {
        matchLabels: { tier: 'prod' },
        matchExpressions: [{ key: 'team', operator: 'In', values: ['platform'] }],
      },
      matches: false,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      expect(matchesSelector(c.selector, c.labels ?? labels)).toBe(c.matches);
    });
  }
});
