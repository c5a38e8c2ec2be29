import { describe, expect, it } from 'vitest';
import type { LabelSelector } from '@hookgate/admission';
import { formatSelector } from './hook-report.js';

describe('formatSelector', () => {
  const cases: { name: string; selector: LabelSelector | undefined; text: string }[] = [
    { name: 'absent', selector: undefined, text: '{}' },
    { name: 'empty', selector: {}, text: '{}' },
    { name: 'labels', selector: { matchLabels: { app: 'web', tier: 'prod' } }, text: '{app=web, tier=prod}' },
    {
      name: 'every operator',
      selector: {
        matchLabels: { app: 'web' },
        matchExpressions: [
          { key: 'env', operator: 'In', values: ['prod', 'dev'] },
          { key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['kube-system'] },
          { key: 'owner', operator: 'Exists' },
          { key: 'legacy', operator: 'DoesNotExist' },
        ],
      },
      text: '{app=web, env in (prod,dev), kubernetes.io/metadata.name notin (kube-system), owner, !legacy}',
    },
  ];
  it.each(cases)('$name', ({ selector, text }) => expect(formatSelector(selector)).toBe(text));
});
