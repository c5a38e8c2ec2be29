/**
 * The persistence table, one named case per row (and the corners between rows): each case is a
 * job, what the read showed at which stage, and the verdict. The README's table is this one.
 */
import { describe, expect, it } from 'vitest';
import {
  PERSISTENCE_RULES,
  decidePersistence,
  describePersistenceRule,
  type ObservedObject,
  type PersistenceFacts,
  type PersistenceRule,
  type PersistenceVerdict,
  type ReadStage,
} from './decide-persistence.js';
import type { AdmissionSummary, GatewayDecision } from './job-schema.js';

const allowed: GatewayDecision = { allowed: true };

const summary = (overrides: Partial<AdmissionSummary> = {}): AdmissionSummary => ({
  uid: 'call-1',
  operation: 'CREATE',
  resource: { group: 'apps', version: 'v1', resource: 'deployments' },
  subResource: '',
  namespace: 'shop',
  name: 'web',
  generateName: '',
  dryRun: false,
  phase: 'validating',
  ...overrides,
});

const validatingCreate = summary({ objectUid: 'u-1' });
const mutatingCreate = summary({ phase: 'mutating' });
const update = (overrides: Partial<AdmissionSummary> = {}) =>
  summary({
    operation: 'UPDATE',
    objectUid: 'u-1',
    objectResourceVersion: '41',
    oldObjectUid: 'u-1',
    oldObjectResourceVersion: '41',
    ...overrides,
  });
const specUpdate = update({ objectGeneration: 4, oldObjectGeneration: 3 });
const del = (overrides: Partial<AdmissionSummary> = {}) =>
  summary({ operation: 'DELETE', oldObjectUid: 'u-1', oldObjectResourceVersion: '50', ...overrides });

const stored = (overrides: Partial<ObservedObject> = {}): ObservedObject => ({
  uid: 'u-1',
  name: 'web',
  resourceVersion: '41',
  ...overrides,
});

const none: ReadStage = { stage: 'none' };
const first = (observed: ObservedObject | 'absent'): ReadStage => ({ stage: 'first', observed });
const confirming = (observed: ObservedObject | 'absent'): ReadStage => ({ stage: 'confirming', observed });

const final = (outcome: 'PERSISTED' | 'NOT_PERSISTED' | 'UNKNOWN', rule: PersistenceRule): PersistenceVerdict =>
  ({ kind: 'final', outcome, rule }) as PersistenceVerdict;
const confirm = (rule: PersistenceRule): PersistenceVerdict => ({ kind: 'confirm', rule }) as PersistenceVerdict;
const read: PersistenceVerdict = { kind: 'read', rule: 'read-needed' };

interface Row {
  readonly name: string;
  readonly admission: AdmissionSummary;
  readonly decision?: GatewayDecision;
  readonly read: ReadStage;
  readonly want: PersistenceVerdict;
}

const rows: Row[] = [
  // Settled without a read.
  {
    name: 'denied by a later hook: NOT_PERSISTED at once, no read',
    admission: validatingCreate,
    decision: { allowed: false, by: 'hook', hook: 'later.example.com', code: 403 },
    read: none,
    want: final('NOT_PERSISTED', 'denied-by-gateway'),
  },
  {
    name: 'refused by the gateway on a failure: NOT_PERSISTED at once',
    admission: update(),
    decision: { allowed: false, by: 'error', hook: 'quota.example.com', code: 500, reason: 'failed-closed' },
    read: none,
    want: final('NOT_PERSISTED', 'denied-by-gateway'),
  },
  {
    name: 'dryRun, even allowed: NOT_PERSISTED at once',
    admission: summary({ objectUid: 'u-1', dryRun: true }),
    read: none,
    want: final('NOT_PERSISTED', 'dry-run'),
  },
  {
    name: 'dryRun wins over a read that would find the object',
    admission: update({ dryRun: true }),
    read: first(stored({ resourceVersion: '42' })),
    want: final('NOT_PERSISTED', 'dry-run'),
  },
  {
    name: 'CONNECT (pods/exec) stores nothing: UNKNOWN at once',
    admission: summary({
      operation: 'CONNECT',
      resource: { group: '', version: 'v1', resource: 'pods' },
      subResource: 'exec',
    }),
    read: none,
    want: final('UNKNOWN', 'connect'),
  },
  {
    name: 'CREATE of a subresource (pods/eviction): UNKNOWN at once',
    admission: summary({ resource: { group: '', version: 'v1', resource: 'pods' }, subResource: 'eviction' }),
    read: none,
    want: final('UNKNOWN', 'subresource-not-update'),
  },
  {
    name: 'mutating CREATE with generateName: no name, no uid, UNKNOWN at once',
    admission: summary({ phase: 'mutating', name: '', generateName: 'web-' }),
    read: none,
    want: final('UNKNOWN', 'unidentifiable'),
  },
  { name: 'an allowed validating CREATE needs a read', admission: validatingCreate, read: none, want: read },
  { name: 'an allowed UPDATE needs a read', admission: update(), read: none, want: read },
  { name: 'an allowed DELETE needs a read', admission: del(), read: none, want: read },

  // CREATE, validating phase: the final name and the uid the object will have.
  {
    name: 'validating CREATE, same uid present: PERSISTED',
    admission: validatingCreate,
    read: first(stored()),
    want: final('PERSISTED', 'create-stored'),
  },
  {
    name: 'validating CREATE with generateName, stored under its final name: PERSISTED',
    admission: summary({ name: 'web-x7k2p', generateName: 'web-', objectUid: 'u-1' }),
    read: first(stored({ name: 'web-x7k2p' })),
    want: final('PERSISTED', 'create-stored'),
  },
  {
    name: 'validating CREATE, stored and already being deleted: PERSISTED (it was stored)',
    admission: validatingCreate,
    read: first(stored({ deletionTimestamp: '2026-11-26T08:00:00Z' })),
    want: final('PERSISTED', 'create-stored'),
  },
  {
    name: 'validating CREATE, absent on the first read: confirm later',
    admission: validatingCreate,
    read: first('absent'),
    want: confirm('create-absent'),
  },
  {
    name: 'validating CREATE, absent on the confirming read: NOT_PERSISTED',
    admission: validatingCreate,
    read: confirming('absent'),
    want: final('NOT_PERSISTED', 'create-absent'),
  },
  {
    name: 'validating CREATE, a late write landed before the confirming read: PERSISTED',
    admission: validatingCreate,
    read: confirming(stored()),
    want: final('PERSISTED', 'create-stored'),
  },
  {
    name: 'validating CREATE, another uid under the name (generateName retried, or another object): confirm later',
    admission: validatingCreate,
    read: first(stored({ uid: 'u-2' })),
    want: confirm('create-other-uid'),
  },
  {
    name: 'validating CREATE, another uid on the confirming read: NOT_PERSISTED',
    admission: validatingCreate,
    read: confirming(stored({ uid: 'u-2' })),
    want: final('NOT_PERSISTED', 'create-other-uid'),
  },

  // CREATE, mutating phase with a name: no uid yet.
  {
    name: 'mutating CREATE by name, absent: confirm later',
    admission: mutatingCreate,
    read: first('absent'),
    want: confirm('create-absent'),
  },
  {
    name: 'mutating CREATE by name, absent on the confirming read: NOT_PERSISTED',
    admission: mutatingCreate,
    read: confirming('absent'),
    want: final('NOT_PERSISTED', 'create-absent'),
  },
  {
    name: 'mutating CREATE by name, present: UNKNOWN (no uid to tell it is the admitted one)',
    admission: mutatingCreate,
    read: first(stored()),
    want: final('UNKNOWN', 'create-present-no-uid'),
  },

  // UPDATE: uid, resourceVersion, generation.
  {
    name: 'UPDATE, the object is gone: confirm later',
    admission: update(),
    read: first('absent'),
    want: confirm('update-absent'),
  },
  {
    name: 'UPDATE, gone on the confirming read: NOT_PERSISTED',
    admission: update(),
    read: confirming('absent'),
    want: final('NOT_PERSISTED', 'update-absent'),
  },
  {
    name: 'UPDATE, replaced under the same name (another uid): confirm later',
    admission: update(),
    read: first(stored({ uid: 'u-2', resourceVersion: '90' })),
    want: confirm('update-other-uid'),
  },
  {
    name: 'UPDATE, replaced on the confirming read: NOT_PERSISTED',
    admission: update(),
    read: confirming(stored({ uid: 'u-2', resourceVersion: '90' })),
    want: final('NOT_PERSISTED', 'update-other-uid'),
  },
  {
    name: 'UPDATE, resourceVersion still the old object’s: confirm later',
    admission: update(),
    read: first(stored()),
    want: confirm('update-unchanged'),
  },
  {
    name: 'UPDATE, still unchanged on the confirming read: NOT_PERSISTED',
    admission: update(),
    read: confirming(stored()),
    want: final('NOT_PERSISTED', 'update-unchanged'),
  },
  {
    name: 'UPDATE, a late write moved the resourceVersion before the confirming read: judged as moved',
    admission: specUpdate,
    read: confirming(stored({ resourceVersion: '42', generation: 4 })),
    want: final('PERSISTED', 'update-spec-change-stored'),
  },
  {
    name: 'validating UPDATE with a spec change, resourceVersion moved, generation the admitted one: PERSISTED',
    admission: specUpdate,
    read: first(stored({ resourceVersion: '42', generation: 4 })),
    want: final('PERSISTED', 'update-spec-change-stored'),
  },
  {
    name: 'validating UPDATE with a spec change, resourceVersion moved by another writer, generation the old one: confirm later',
    admission: specUpdate,
    read: first(stored({ resourceVersion: '42', generation: 3 })),
    want: confirm('update-spec-change-missing'),
  },
  {
    name: 'validating UPDATE with a spec change, still missing on the confirming read: NOT_PERSISTED',
    admission: specUpdate,
    read: confirming(stored({ resourceVersion: '43', generation: 3 })),
    want: final('NOT_PERSISTED', 'update-spec-change-missing'),
  },
  {
    name: 'validating UPDATE with a spec change, later spec changes followed: UNKNOWN (superseded)',
    admission: specUpdate,
    read: first(stored({ resourceVersion: '47', generation: 6 })),
    want: final('UNKNOWN', 'update-superseded'),
  },
  {
    name: 'UPDATE without a spec change (labels), resourceVersion moved: UNKNOWN',
    admission: update({ objectGeneration: 3, oldObjectGeneration: 3 }),
    read: first(stored({ resourceVersion: '42', generation: 3 })),
    want: final('UNKNOWN', 'update-moved'),
  },
  {
    name: 'mutating UPDATE: the generation has no bump yet, resourceVersion moved: UNKNOWN',
    admission: update({ phase: 'mutating', objectGeneration: 4, oldObjectGeneration: 3 }),
    read: first(stored({ resourceVersion: '42', generation: 4 })),
    want: final('UNKNOWN', 'update-moved'),
  },
  {
    name: 'UPDATE of a resource without generations, resourceVersion moved: UNKNOWN',
    admission: update({ resource: { group: '', version: 'v1', resource: 'configmaps' } }),
    read: first(stored({ resourceVersion: '42' })),
    want: final('UNKNOWN', 'update-moved'),
  },
  {
    name: 'UPDATE with a spec change, the stored object shows no generation: UNKNOWN',
    admission: specUpdate,
    read: first(stored({ resourceVersion: '42' })),
    want: final('UNKNOWN', 'update-moved'),
  },
  {
    name: 'UPDATE, the job has no old resourceVersion: UNKNOWN',
    admission: update({ oldObjectResourceVersion: undefined }),
    read: first(stored()),
    want: final('UNKNOWN', 'update-no-baseline'),
  },
  {
    name: 'UPDATE, the job has no uid at all: UNKNOWN',
    admission: update({ objectUid: undefined, oldObjectUid: undefined }),
    read: first(stored()),
    want: final('UNKNOWN', 'update-no-baseline'),
  },
  {
    name: 'UPDATE whose object has no uid: the old object’s uid is compared',
    admission: update({ objectUid: undefined }),
    read: first(stored({ uid: 'u-2' })),
    want: confirm('update-other-uid'),
  },

  // Subresources: judged by the parent object.
  {
    name: 'status UPDATE, the parent unchanged: confirm later',
    admission: update({ subResource: 'status', objectGeneration: 3, oldObjectGeneration: 3 }),
    read: first(stored({ generation: 3 })),
    want: confirm('update-unchanged'),
  },
  {
    name: 'status UPDATE, the parent’s resourceVersion moved: UNKNOWN (status writes do not bump the generation)',
    admission: update({ subResource: 'status', objectGeneration: 3, oldObjectGeneration: 3 }),
    read: first(stored({ resourceVersion: '42', generation: 3 })),
    want: final('UNKNOWN', 'update-moved'),
  },
  {
    name: 'status UPDATE, the parent replaced: confirm later',
    admission: update({ subResource: 'status' }),
    read: first(stored({ uid: 'u-2' })),
    want: confirm('update-other-uid'),
  },
  {
    name: 'scale UPDATE, the parent gone on the confirming read: NOT_PERSISTED',
    admission: update({ subResource: 'scale' }),
    read: confirming('absent'),
    want: final('NOT_PERSISTED', 'update-absent'),
  },

  // DELETE: gone, deletionTimestamp, another uid.
  {
    name: 'DELETE, the object is gone: PERSISTED',
    admission: del(),
    read: first('absent'),
    want: final('PERSISTED', 'delete-absent'),
  },
  {
    name: 'DELETE, another uid holds the name now: PERSISTED',
    admission: del(),
    read: first(stored({ uid: 'u-2' })),
    want: final('PERSISTED', 'delete-other-uid'),
  },
  {
    name: 'DELETE, the object has a deletionTimestamp (finalizers): PERSISTED',
    admission: del(),
    read: first(stored({ resourceVersion: '51', deletionTimestamp: '2026-11-26T08:00:00Z' })),
    want: final('PERSISTED', 'delete-in-progress'),
  },
  {
    name: 'DELETE, present and not being deleted: confirm later',
    admission: del(),
    read: first(stored({ resourceVersion: '50' })),
    want: confirm('delete-still-there'),
  },
  {
    name: 'DELETE, still there on the confirming read: NOT_PERSISTED',
    admission: del(),
    read: confirming(stored({ resourceVersion: '52' })),
    want: final('NOT_PERSISTED', 'delete-still-there'),
  },
  {
    name: 'DELETE, gone by the confirming read: PERSISTED',
    admission: del(),
    read: confirming('absent'),
    want: final('PERSISTED', 'delete-absent'),
  },
  {
    name: 'DELETE of a job without the old uid, present with the old resourceVersion: confirm later',
    admission: del({ oldObjectUid: undefined }),
    read: first(stored({ resourceVersion: '50' })),
    want: confirm('delete-still-there'),
  },
  {
    name: 'DELETE of a job without the old uid, present with another resourceVersion: UNKNOWN',
    admission: del({ oldObjectUid: undefined }),
    read: first(stored({ resourceVersion: '70' })),
    want: final('UNKNOWN', 'delete-unidentified'),
  },
  {
    name: 'DELETE of a job without the old uid, being deleted: PERSISTED',
    admission: del({ oldObjectUid: undefined }),
    read: first(stored({ resourceVersion: '70', deletionTimestamp: '2026-11-26T08:00:00Z' })),
    want: final('PERSISTED', 'delete-in-progress'),
  },
];

describe('decidePersistence', () => {
  it.each(rows)('$name', ({ admission, decision, read, want }) => {
    const facts: PersistenceFacts = { admission, decision: decision ?? allowed };
    expect(decidePersistence(facts, read)).toEqual(want);
  });

  it('has a case for every rule, and every rule has its why', () => {
    const covered = new Set(rows.map((row) => row.want.rule));
    for (const rule of Object.keys(PERSISTENCE_RULES) as PersistenceRule[]) {
      expect(covered, `no case for ${rule}`).toContain(rule);
      expect(describePersistenceRule(rule)).toMatch(new RegExp(`^${rule}: .{10,}`));
    }
  });

  it('never asks to confirm on the confirming read, nor to read again once read', () => {
    for (const row of rows) {
      if (row.read.stage === 'none') continue;
      const verdict = decidePersistence(
        { admission: row.admission, decision: row.decision ?? allowed },
        {
          stage: 'confirming',
          observed: row.read.observed,
        },
      );
      expect(verdict.kind, row.name).toBe('final');
    }
  });
});
