/**
 * Did the cluster store what the gateway admitted? A pure, total decision from a job (its admission
 * summary and the gateway's decision) and what a consistent, metadata-only read of the object
 * showed. The rules are the table in this package's README ("Did the cluster store it?"); each has
 * a name, which the controller logs and counts, and a `why` for operators.
 *
 *   decidePersistence(job, { stage: 'none' })                         // no read yet: final, or 'read'
 *   decidePersistence(job, { stage: 'first', observed })              // final, or 'confirm' (NOT_PERSISTED so far)
 *   decidePersistence(job, { stage: 'confirming', observed })         // always final
 *
 * NOT_PERSISTED from a read is final only on the confirming read, taken after a delay longer than
 * the window in which a late write can land (the apiserver finishes a timed-out write on its own).
 */
import type { AdmissionSummary, GatewayDecision } from './job-schema.js';

/** What the plugin is told (the contract's Outcome). */
export type Persistence = 'PERSISTED' | 'NOT_PERSISTED' | 'UNKNOWN';

/** The metadata of the object a consistent read found (the parent object for a subresource). */
export interface ObservedObject {
  readonly uid: string;
  readonly name: string;
  readonly resourceVersion: string;
  /** Absent for resources that do not track it. */
  readonly generation?: number;
  /** Set while the object is being deleted (finalizers, graceful deletion). */
  readonly deletionTimestamp?: string;
}

export type Observation = ObservedObject | 'absent';

export type ReadStage =
  { readonly stage: 'none' } | { readonly stage: 'first' | 'confirming'; readonly observed: Observation };

/** What the decision needs from a job. */
export interface PersistenceFacts {
  readonly admission: AdmissionSummary;
  readonly decision: GatewayDecision;
}

export const PERSISTENCE_RULES = {
  'dry-run': { outcome: 'NOT_PERSISTED', why: 'a dryRun request is never stored' },
  'denied-by-gateway': { outcome: 'NOT_PERSISTED', why: 'the gateway denied the request, so it was never stored' },
  connect: { outcome: 'UNKNOWN', why: 'a CONNECT request stores nothing the controller could read' },
  'subresource-not-update': {
    outcome: 'UNKNOWN',
    why: 'a CREATE or DELETE of a subresource (eviction, binding, token) leaves no object to recognise',
  },
  unidentifiable: {
    outcome: 'UNKNOWN',
    why: 'the request names no object (a mutating CREATE with generateName): keep side effects to the validating phase',
  },
  'read-needed': { outcome: 'READ', why: 'the object must be read' },
  'create-stored': { outcome: 'PERSISTED', why: 'the object exists with the uid it was admitted with' },
  'create-absent': { outcome: 'NOT_PERSISTED', why: 'no object has the admitted name' },
  'create-other-uid': {
    outcome: 'NOT_PERSISTED',
    why: 'the object under the admitted name has another uid (a retried generateName, or another object)',
  },
  'create-present-no-uid': {
    outcome: 'UNKNOWN',
    why: 'an object has the name, but a mutating CREATE has no uid to tell whether it is the admitted one',
  },
  'update-absent': { outcome: 'NOT_PERSISTED', why: 'the object is gone (deleted since)' },
  'update-other-uid': { outcome: 'NOT_PERSISTED', why: 'the object was replaced (same name, another uid)' },
  'update-no-baseline': {
    outcome: 'UNKNOWN',
    why: 'the job has no uid or old resourceVersion to compare with',
  },
  'update-unchanged': {
    outcome: 'NOT_PERSISTED',
    why: 'the resourceVersion is still the old object’s: nothing was written',
  },
  'update-spec-change-missing': {
    outcome: 'NOT_PERSISTED',
    why: 'the generation is below the admitted one: the admitted spec change is not there (generations never go down)',
  },
  'update-spec-change-stored': {
    outcome: 'PERSISTED',
    why: 'the resourceVersion moved and the generation is the one the admitted spec change gave',
  },
  'update-superseded': {
    outcome: 'UNKNOWN',
    why: 'later spec changes followed: reconcile against the current object',
  },
  'update-moved': {
    outcome: 'UNKNOWN',
    why: 'the resourceVersion moved, and nothing in the metadata tells this change from another writer’s (status, labels, scale)',
  },
  'delete-absent': { outcome: 'PERSISTED', why: 'the object is gone' },
  'delete-other-uid': { outcome: 'PERSISTED', why: 'the deleted object is gone; another uid holds the name now' },
  'delete-in-progress': { outcome: 'PERSISTED', why: 'the object has a deletionTimestamp: it is being deleted' },
  'delete-still-there': { outcome: 'NOT_PERSISTED', why: 'the object is there and not being deleted' },
  'delete-unidentified': {
    outcome: 'UNKNOWN',
    why: 'an object has the name and the job has no uid to tell whether it is the one the request deleted',
  },
} as const satisfies Record<string, { outcome: Persistence | 'READ'; why: string }>;

export type PersistenceRule = keyof typeof PERSISTENCE_RULES;
/** The rules that give an outcome (all but 'read-needed'). */
export type SettledRule = Exclude<PersistenceRule, 'read-needed'>;

export type PersistenceVerdict =
  /** Tell the plugin. */
  | { readonly kind: 'final'; readonly outcome: Persistence; readonly rule: SettledRule }
  /** Read the object (after the grace period), then decide again with `first`. */
  | { readonly kind: 'read'; readonly rule: 'read-needed' }
  /** NOT_PERSISTED so far: read again after the confirm delay, then decide with `confirming`. */
  | { readonly kind: 'confirm'; readonly rule: SettledRule };

export function decidePersistence(facts: PersistenceFacts, read: ReadStage): PersistenceVerdict {
  const { admission, decision } = facts;
  // Before any read: what the job alone settles.
  if (admission.dryRun) return final('dry-run');
  if (!decision.allowed) return final('denied-by-gateway');
  if (admission.operation === 'CONNECT') return final('connect');
  if (admission.subResource !== '' && admission.operation !== 'UPDATE') return final('subresource-not-update');
  if (admission.name === '') return final('unidentifiable');

  switch (read.stage) {
    case 'none':
      return { kind: 'read', rule: 'read-needed' };
    case 'first':
    case 'confirming': {
      const rule = ruleFor(admission, read.observed);
      const outcome: Persistence = PERSISTENCE_RULES[rule].outcome;
      // A late write may still land: NOT_PERSISTED waits for the confirming read.
      if (outcome === 'NOT_PERSISTED' && read.stage === 'first') return { kind: 'confirm', rule };
      return { kind: 'final', outcome, rule };
    }
    default:
      return assertNever(read);
  }
}

/** The rule that applies once the object was read. */
function ruleFor(admission: AdmissionSummary, observed: Observation): SettledRule {
  const operation = admission.operation;
  switch (operation) {
    case 'CREATE':
      return createRule(admission, observed);
    case 'UPDATE':
      return updateRule(admission, observed);
    case 'DELETE':
      return deleteRule(admission, observed);
    case 'CONNECT':
      return 'connect';
    default:
      return assertNever(operation);
  }
}

function createRule(admission: AdmissionSummary, observed: Observation): SettledRule {
  if (observed === 'absent') return 'create-absent';
  // The validating phase knows the uid storage gave the object; the mutating phase does not.
  if (admission.objectUid === undefined) return 'create-present-no-uid';
  return observed.uid === admission.objectUid ? 'create-stored' : 'create-other-uid';
}

function updateRule(admission: AdmissionSummary, observed: Observation): SettledRule {
  if (observed === 'absent') return 'update-absent';
  const uid = admission.objectUid ?? admission.oldObjectUid;
  const oldVersion = admission.oldObjectResourceVersion;
  if (uid === undefined || oldVersion === undefined) return 'update-no-baseline';
  if (observed.uid !== uid) return 'update-other-uid';
  if (observed.resourceVersion === oldVersion) return 'update-unchanged';
  return movedUpdateRule(admission, observed);
}

/**
 * The resourceVersion moved: by this update or by another writer. Only a spec change tells them
 * apart in metadata: in the validating phase the request's generation already carries the bump,
 * and a generation never goes down.
 */
function movedUpdateRule(admission: AdmissionSummary, observed: ObservedObject): SettledRule {
  const admitted = admission.objectGeneration;
  const old = admission.oldObjectGeneration;
  const stored = observed.generation;
  const specChange = admission.phase === 'validating' && admitted !== undefined && old !== undefined && admitted > old;
  if (!specChange || stored === undefined) return 'update-moved';
  if (stored < admitted) return 'update-spec-change-missing';
  return stored === admitted ? 'update-spec-change-stored' : 'update-superseded';
}

function deleteRule(admission: AdmissionSummary, observed: Observation): SettledRule {
  if (observed === 'absent') return 'delete-absent';
  const uid = admission.oldObjectUid ?? admission.objectUid;
  if (uid !== undefined && observed.uid !== uid) return 'delete-other-uid';
  // Set by this request or an earlier one: either way the object is on its way out.
  if (observed.deletionTimestamp !== undefined && observed.deletionTimestamp !== '') return 'delete-in-progress';
  if (uid !== undefined) return 'delete-still-there';
  // A job without the old uid: only an unchanged resourceVersion proves it is the same object.
  return admission.oldObjectResourceVersion !== undefined &&
    observed.resourceVersion === admission.oldObjectResourceVersion
    ? 'delete-still-there'
    : 'delete-unidentified';
}

function final(rule: SettledRule): PersistenceVerdict {
  return { kind: 'final', outcome: PERSISTENCE_RULES[rule].outcome, rule };
}

/** The `why` of a rule, for logs: `create-other-uid: the object under ...`. */
export function describePersistenceRule(rule: PersistenceRule): string {
  return `${rule}: ${PERSISTENCE_RULES[rule].why}`;
}

function assertNever(value: never): never {
  throw new Error(`unhandled case ${JSON.stringify(value)}`);
}
