import { describe, expect, it } from 'vitest';
import { computeJobId, jobIdOf, type JobIdentity } from './job-id.js';

const identity: JobIdentity = {
  plugin: 'ledger',
  requestUid: '705ab4f5-6393-11e8-b7cc-42010a800002',
  hook: 'claims.ledger.hookgate.dev',
  effectKind: 'ledger-claim',
  effectKey: 'default/web',
};

describe('computeJobId', () => {
  it('is a prefixed sha256 in hex: never all digits, no ":"', () => {
    const id = computeJobId(identity);
    expect(id).toMatch(/^se1-[0-9a-f]{64}$/);
  });

  it('is the documented hash of the JSON array of the parts (a fixed vector)', () => {
    // sha256('["p","u","h","k","x"]'), computed once with `printf %s '["p","u","h","k","x"]' | sha256sum`.
    expect(computeJobId({ plugin: 'p', requestUid: 'u', hook: 'h', effectKind: 'k', effectKey: 'x' })).toBe(
      'se1-5923ebe74e6d4da2adeca17939978c40b0eea2fa9b64ee34cd663a77479e83cb',
    );
  });

  it('gives the same id for the same inputs', () => {
    expect(computeJobId({ ...identity })).toBe(computeJobId(identity));
  });

  it.each(Object.keys(identity) as (keyof JobIdentity)[])('changes when %s changes', (part) => {
    expect(computeJobId({ ...identity, [part]: `${identity[part]}-other` })).not.toBe(computeJobId(identity));
  });

  it('keeps the parts apart: moving a character between neighbours changes the id', () => {
    const a = computeJobId({ ...identity, effectKind: 'a:b', effectKey: 'c' });
    const b = computeJobId({ ...identity, effectKind: 'a', effectKey: 'b:c' });
    const c = computeJobId({ ...identity, effectKind: 'a","b', effectKey: 'c' });
    expect(new Set([a, b, c]).size).toBe(3);
  });

  it('jobIdOf reads the identity from a job', () => {
    expect(
      jobIdOf({
        plugin: identity.plugin,
        hook: identity.hook,
        admission: { uid: identity.requestUid },
        effect: { kind: identity.effectKind, key: identity.effectKey },
      }),
    ).toBe(computeJobId(identity));
  });
});
