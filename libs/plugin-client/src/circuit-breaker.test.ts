import { describe, expect, it } from 'vitest';
import { CircuitBreaker, type CircuitAdmission, type CircuitState } from './circuit-breaker.js';

type Step =
  | { do: 'admit'; want: CircuitAdmission }
  | { do: 'success' | 'failure' | 'release' | 'probe-ok' | 'probe-failed' }
  | { do: 'advance'; ms: number };

interface Case {
  name: string;
  steps: Step[];
  wantState: CircuitState;
  wantTransitions: string[];
}

const fail = { do: 'failure' } as const;
const pass = { do: 'admit', want: 'pass' } as const;

const cases: Case[] = [
  {
    name: 'stays closed below the threshold',
    steps: [pass, fail, pass, fail, pass],
    wantState: 'closed',
    wantTransitions: [],
  },
  {
    name: 'a success resets the count',
    steps: [fail, fail, { do: 'success' }, fail, fail, pass],
    wantState: 'closed',
    wantTransitions: [],
  },
  {
    name: 'opens after N consecutive failures and rejects at once',
    steps: [fail, fail, fail, { do: 'admit', want: 'reject' }],
    wantState: 'open',
    wantTransitions: ['closed→open'],
  },
  {
    name: 'after the cool-down one trial goes, the others are rejected',
    steps: [
      fail,
      fail,
      fail,
      { do: 'advance', ms: 1000 },
      { do: 'admit', want: 'trial' },
      { do: 'admit', want: 'reject' },
    ],
    wantState: 'half-open',
    wantTransitions: ['closed→open', 'open→half-open'],
  },
  {
    name: 'a successful trial closes',
    steps: [fail, fail, fail, { do: 'advance', ms: 1000 }, { do: 'admit', want: 'trial' }, { do: 'success' }, pass],
    wantState: 'closed',
    wantTransitions: ['closed→open', 'open→half-open', 'half-open→closed'],
  },
  {
    name: 'a failed trial reopens with a doubled cool-down',
    steps: [
      fail,
      fail,
      fail,
      { do: 'advance', ms: 1000 },
      { do: 'admit', want: 'trial' },
      fail,
      { do: 'advance', ms: 1000 },
      { do: 'admit', want: 'reject' },
      { do: 'advance', ms: 1000 },
      { do: 'admit', want: 'trial' },
    ],
    wantState: 'half-open',
    wantTransitions: ['closed→open', 'open→half-open', 'half-open→open', 'open→half-open'],
  },
  {
    name: 'a cancelled trial lets the next call try',
    steps: [
      fail,
      fail,
      fail,
      { do: 'advance', ms: 1000 },
      { do: 'admit', want: 'trial' },
      { do: 'release' },
      { do: 'admit', want: 'trial' },
    ],
    wantState: 'half-open',
    wantTransitions: ['closed→open', 'open→half-open', 'half-open→open', 'open→half-open'],
  },
  {
    name: 'a passing health probe closes while open',
    steps: [fail, fail, fail, { do: 'probe-ok' }, pass],
    wantState: 'closed',
    wantTransitions: ['closed→open', 'open→closed'],
  },
  {
    name: 'a failing health probe keeps it open longer',
    steps: [
      fail,
      fail,
      fail,
      { do: 'probe-failed' },
      { do: 'advance', ms: 1500 },
      { do: 'admit', want: 'reject' },
      { do: 'advance', ms: 500 },
      { do: 'admit', want: 'trial' },
    ],
    wantState: 'half-open',
    wantTransitions: ['closed→open', 'open→half-open'],
  },
];

describe('CircuitBreaker', () => {
  for (const c of cases) {
    it(c.name, () => {
      let clock = 0;
      const transitions: string[] = [];
      const breaker = new CircuitBreaker({
        failureThreshold: 3,
        cooldownMs: 1000,
        maxCooldownMs: 4000,
        now: () => clock,
        onStateChange: (state, previous) => transitions.push(`${previous}→${state}`),
      });
      for (const step of c.steps) {
        if (step.do === 'admit') expect(breaker.admit()).toBe(step.want);
        else if (step.do === 'success') breaker.recordSuccess();
        else if (step.do === 'failure') breaker.recordFailure();
        else if (step.do === 'release') breaker.releaseTrial();
        else if (step.do === 'probe-ok') breaker.probeSucceeded();
        else if (step.do === 'probe-failed') breaker.probeFailed();
        else if (step.do === 'advance') clock += step.ms;
      }
      expect(breaker.state).toBe(c.wantState);
      expect(transitions).toEqual(c.wantTransitions);
    });
  }

  it('caps the cool-down', () => {
    let clock = 0;
    const breaker = new CircuitBreaker({
      failureThreshold: 1,
      cooldownMs: 1000,
      maxCooldownMs: 2500,
      now: () => clock,
    });
    breaker.recordFailure();
    for (let i = 0; i < 5; i++) {
      clock += breaker.retryInMs;
      expect(breaker.admit()).toBe('trial');
      breaker.recordFailure();
    }
    expect(breaker.retryInMs).toBe(2500);
  });
});
