/**
 * One periodic resync of one plugin, as a plain async function (no BullMQ here; the controller
 * runs it for each `resync` job its job scheduler makes):
 *
 *   page by page, ListHeldEffects → for each effect older than the admission window, read its
 *   object → absent, or another uid under the name → ReconcileOrphan.
 *
 * The plugin lists what it holds (only it knows), the controller checks it against the cluster
 * (only it reads the apiserver). Effects younger than `minAgeMs` are left alone: their admission
 * may still be in flight, and its own job reconciles them. A plugin without resync (UNIMPLEMENTED)
 * is skipped. One effect that fails (a read refused, the plugin erring) is counted and the run
 * goes on; the next run sees it again. Both calls are at-least-once.
 */
import type { ReconcileCallOutcome, ListHeldEffectsCallOutcome } from '@hookgate/plugin-client';
import type { HeldEffect__Output, ListHeldEffectsRequest, ReconcileOrphanRequest } from '@hookgate/proto';
import { describeObjectRef, type ObjectRef, type ReadObject } from './object-reader.js';

export interface ResyncDeps {
  readonly listHeld: (plugin: string, request: ListHeldEffectsRequest) => Promise<ListHeldEffectsCallOutcome>;
  readonly reconcileOrphan: (plugin: string, request: ReconcileOrphanRequest) => Promise<ReconcileCallOutcome>;
  readonly readObject: ReadObject;
  readonly now: () => number;
  /** Effects written less than this long ago are not checked (the grace period plus the confirm delay). */
  readonly minAgeMs: number;
  readonly pageSize: number;
  /** Stops between effects (the controller is stopping): the run ends as 'partial'. */
  readonly signal?: AbortSignal;
}

export type ResyncResult =
  /** ok: every page listed and every orphan handed back; partial: some failed or the run was stopped. */
  | ({ readonly result: 'ok' | 'partial' } & ResyncCounts)
  /** The plugin serves no resync. */
  | { readonly result: 'unimplemented' }
  /** Listing failed (plugin down, timed out, erred): the next run tries again. */
  | ({ readonly result: 'unavailable'; readonly reason: string } & ResyncCounts);

export interface ResyncCounts {
  /** Effects the plugin listed. */
  readonly listed: number;
  /** Too young to check. */
  readonly young: number;
  /** Their object is there (and the same uid). */
  readonly kept: number;
  /** Absent or replaced, and the plugin said done. */
  readonly reconciled: number;
  /** Absent or replaced, and the plugin said not done (the next run retries). */
  readonly pending: number;
  /** A read or a ReconcileOrphan call failed. */
  readonly failed: number;
  /** One line per failure, at most 10, for the log. */
  readonly failures: readonly string[];
}

const GRPC_UNIMPLEMENTED = 12;
/** More pages than this in one run means a plugin whose page token never ends: stop. */
const MAX_PAGES = 100_000;
const MAX_FAILURE_LINES = 10;

export async function resyncPlugin(plugin: string, deps: ResyncDeps): Promise<ResyncResult> {
  const counts = { listed: 0, young: 0, kept: 0, reconciled: 0, pending: 0, failed: 0, failures: [] as string[] };
  const fail = (line: string) => {
    counts.failed++;
    if (counts.failures.length < MAX_FAILURE_LINES) counts.failures.push(line);
  };
  let pageToken = '';
  for (let page = 0; page < MAX_PAGES; page++) {
    if (deps.signal?.aborted) return { result: 'partial', ...counts };
    const listed = await deps.listHeld(plugin, { pageToken, pageSize: deps.pageSize });
    if (!listed.ok) {
      if (listed.kind === 'rpc' && listed.code === GRPC_UNIMPLEMENTED && !listed.transport) {
        return { result: 'unimplemented' };
      }
      return { result: 'unavailable', reason: `listing held effects: ${describeFailure(listed)}`, ...counts };
    }
    for (const held of listed.response.effects) {
      if (deps.signal?.aborted) return { result: 'partial', ...counts };
      counts.listed++;
      await checkOne(plugin, held, deps, counts, fail);
    }
    pageToken = listed.response.nextPageToken;
    if (pageToken === '') return { result: counts.failed > 0 ? 'partial' : 'ok', ...counts };
  }
  fail(`more than ${MAX_PAGES} pages: the plugin's page token never ends`);
  return { result: 'partial', ...counts };
}

async function checkOne(
  plugin: string,
  held: HeldEffect__Output,
  deps: ResyncDeps,
  counts: { young: number; kept: number; reconciled: number; pending: number },
  fail: (line: string) => void,
): Promise<void> {
  const effect = held.sideEffect;
  const object = held.object;
  const what = `${effect?.kind ?? '?'} ${JSON.stringify(effect?.key ?? '')}`;
  if (effect === null || object === null || object.name === '' || object.resource === '' || object.version === '') {
    fail(`${what}: listed without its object (resource, version and name are required)`);
    return;
  }
  if (deps.now() - held.sinceMs < deps.minAgeMs) {
    counts.young++;
    return;
  }
  const ref: ObjectRef = {
    group: object.group,
    version: object.version,
    resource: object.resource,
    namespace: object.namespace,
    name: object.name,
  };
  let observed: Awaited<ReturnType<ReadObject>>;
  try {
    observed = await deps.readObject(ref);
  } catch (error) {
    fail(
      `${what}: reading ${describeObjectRef(ref)} failed: ${error instanceof Error ? error.message : String(error)}`,
    );
    return;
  }
  if (typeof observed === 'object' && 'kind' in observed) {
    fail(`${what}: reading ${describeObjectRef(ref)}: apiserver unavailable (${observed.reason})`);
    return;
  }
  const observedUid = observed === 'absent' ? undefined : observed.uid;
  const replaced = observedUid !== undefined && object.uid !== '' && observedUid !== object.uid;
  if (observedUid !== undefined && !replaced) {
    counts.kept++;
    return;
  }
  const answer = await deps.reconcileOrphan(plugin, {
    held,
    reason: replaced ? 'replaced' : 'absent',
    observedUid: replaced ? observedUid : '',
  });
  if (!answer.ok) {
    fail(`${what} of ${describeObjectRef(ref)}: ReconcileOrphan ${describeFailure(answer)}`);
    return;
  }
  if (answer.response.done) counts.reconciled++;
  else counts.pending++;
}

function describeFailure(failure: Exclude<ReconcileCallOutcome, { ok: true }>): string {
  switch (failure.kind) {
    case 'timeout':
      return 'timed out';
    case 'canceled':
      return 'was canceled';
    case 'circuit-open':
      return `refused (circuit open after ${failure.failures} failures)`;
    case 'rpc':
      return `failed with gRPC status ${failure.code} (${failure.detail})`;
  }
}
