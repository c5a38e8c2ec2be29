import { describe, expect, it } from 'vitest';
import type { Hook, HookSet } from '@hookgate/admission';
import type { HookVerdict } from './hook-report.js';
import type { ReviewReport } from './review-report.js';
import { compare } from './test-run.js';
import type { Expectation } from './test-suite.js';

const hookSet = {
  mutating: [{ name: 'm.example.com' }],
  validating: [{ name: 'v.example.com' }],
} as unknown as HookSet & { mutating: Hook[] };
const verdict = (hook: string, result: HookVerdict['result'], reason?: string): HookVerdict => ({
  phase: hook.startsWith('m') ? 'mutating' : 'validating',
  hook,
  configuration: 'c',
  round: 0,
  result,
  ...(reason ? { reason } : {}),
});
const denied: ReviewReport = {
  source: 'case',
  request: { operation: 'CREATE', resource: 'v1/pods', namespace: 'ns', name: 'p' },
  allowed: false,
  status: { code: 403, message: 'admission webhook "v.example.com" denied the request: no team label' },
  hooks: [verdict('m.example.com', 'patched'), verdict('v.example.com', 'denied', 'no team label')],
  warnings: [],
  auditAnnotations: {},
  sideEffects: [],
  object: { kind: 'Pod', metadata: { labels: { a: '1' } } },
};
const expectation = (e: Partial<Expectation>): Expectation => ({ hooks: [], ...e });

describe('compare', () => {
  const cases = [
    { name: 'nothing expected', expected: expectation({}), problems: [] },
    {
      name: 'everything as expected',
      expected: expectation({
        allowed: false,
        code: 403,
        message: 'no team',
        hooks: [
          { hook: 'm.example.com', result: 'patched' },
          { hook: 'v.example.com', result: 'denied', message: 'team' },
        ],
      }),
      object: { kind: 'Pod', metadata: { labels: { a: '1' } } },
      problems: [],
    },
    {
      name: 'the decision, code and message',
      expected: expectation({ allowed: true, code: 422, message: 'immutable' }),
      problems: [
        'expected allowed, got denied: admission webhook "v.example.com" denied the request: no team label',
        'expected a message containing "immutable", got "admission webhook \\"v.example.com\\" denied the request: no team label"',
        'expected code 422, got 403',
      ],
    },
    {
      name: 'a hook result and message, and a hook that is not configured',
      expected: expectation({
        hooks: [
          { hook: 'v.example.com', result: 'allowed', message: 'quota' },
          { hook: 'x.example.com', result: 'skipped' },
        ],
      }),
      problems: [
        'hook v.example.com: expected allowed, got denied (no team label)',
        'hook v.example.com: expected a message containing "quota", got "no team label"',
        'hook x.example.com: not in the configuration (configured: m.example.com, v.example.com)',
      ],
    },
    {
      name: 'the patched object, with a diff',
      expected: expectation({}),
      object: { kind: 'Pod', metadata: { labels: { a: '2' } } },
      problems: [
        [
          'the patched object differs from the expected one:',
          '--- expected',
          '+++ got',
          '@@ -1,4 +1,4 @@',
          ' kind: Pod',
          ' metadata:',
          '   labels:',
          '-    a: "2"',
          '+    a: "1"',
        ].join('\n'),
      ],
    },
  ];
  it.each(cases)('$name', ({ expected, object, problems }) =>
    expect(compare(expected, denied, object, { hooks: hookSet })).toEqual(problems),
  );
});
