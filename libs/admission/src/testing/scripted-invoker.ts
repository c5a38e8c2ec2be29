/**
 * A HookInvoker over the scripted webhook: it builds the review the bridge would POST, lets the
 * behaviour named by the hook's target answer, and judges that answer with the real response
 * verification (review/verify.ts). Only the socket is missing. `timeout` moves the test clock to
 * the call's deadline and fails the call as a timed-out transport would.
 */
import type { Hook, HookTarget } from '../types/hook.js';
import type { HookCall, HookInvoker, HookReply } from '../types/invoker.js';
import type { AdmissionReview } from '../types/review.js';
import { buildHookReview, hookTimeoutQuery, timeoutFailure, verifyHookResponse } from '../review/index.js';
import { respondAsWebhook } from './scripted-webhook.js';
import type { TestClock } from './test-clock.js';

export interface ScriptedInvokerOptions {
  /** Moved to the deadline by hanging behaviours; without it they fail at once. */
  readonly clock?: TestClock;
  /** Time each answered call takes (ms, on the test clock). Default 0. */
  readonly callDurationMs?: number;
  /** Overrides how a hook names its behaviour. */
  readonly behaviourOf?: (hook: Hook) => string;
}

export interface ScriptedInvoker {
  readonly invoke: HookInvoker;
  /** Every call received, in order. */
  readonly calls: readonly HookCall[];
  /** How many calls each behaviour received. */
  invocations(): Record<string, number>;
}

/** The behaviour a hook asks for: its plugin name, or the last segment of its URL or service path. */
export function behaviourOf(hook: Pick<Hook, 'target'>): string {
  const target = hook.target;
  switch (target.kind) {
    case 'plugin':
      return target.plugin;
    case 'url':
      return lastSegment(safePathname(target.url));
    case 'service':
      return lastSegment(target.path);
  }
}

/** The URL the bridge would POST for this call, `?timeout=` included. */
export function callUrl(call: HookCall): string {
  const query = call.timeoutSeconds > 0 ? `?timeout=${hookTimeoutQuery(call.timeoutSeconds)}` : '';
  return baseUrl(call.hook.target) + query;
}

export function buildScriptedInvoker(options: ScriptedInvokerOptions = {}): ScriptedInvoker {
  const calls: HookCall[] = [];
  const counts: Record<string, number> = {};
  const nameOf = options.behaviourOf ?? behaviourOf;
  const invoke: HookInvoker = async (call) => {
    calls.push(call);
    const behaviour = nameOf(call.hook);
    counts[behaviour] = (counts[behaviour] ?? 0) + 1;
    // Over the wire: the hook sees JSON, not our objects.
    const review = JSON.parse(JSON.stringify(buildHookReview(call))) as AdmissionReview;
    const reply = respondAsWebhook(behaviour, review);
    if (reply.kind === 'hang') {
      options.clock?.advanceTo(call.deadline);
      return { ok: false, failure: timeoutFailure(callUrl(call)) } satisfies HookReply;
    }
    options.clock?.advance(options.callDurationMs ?? 0);
    const { status, contentType, body } = reply.response;
    return verifyHookResponse(
      { httpStatus: status, body, url: callUrl(call), ...(contentType ? { contentType } : {}) },
      call,
    );
  };
  return {
    invoke,
    calls,
    invocations: () => ({ ...counts }),
  };
}

function baseUrl(target: HookTarget): string {
  switch (target.kind) {
    case 'url':
      return target.url;
    case 'service':
      return `https://${target.name}.${target.namespace}.svc:${target.port}${target.path}`;
    case 'plugin':
      return `plugin://${target.plugin}`;
  }
}

function safePathname(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}

function lastSegment(path: string): string {
  const parts = path.split('/').filter((p) => p !== '');
  return parts[parts.length - 1] ?? '';
}
