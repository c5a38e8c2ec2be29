/**
 * `hookgate review`: one request through the configured hooks with the real transports, printed as
 * a decision report (or JSON). Exit 0 allowed, 2 denied, 1 on bad input.
 */
import { readFile } from 'node:fs/promises';
import { formatConfigError, loadConfiguration } from '@hookgate/config';
import { dryRunReview } from '@hookgate/gateway';
import { formatOutcome } from '../format.js';
import { readReviewInput } from '../review-input.js';

/** The parsed `hookgate review` flags (review-flags.ts). */
export interface ReviewFlags {
  config: string;
  operation: string;
  resource?: string;
  namespace?: string;
  user: string;
  dryRun?: boolean;
  timeout: string;
  output: string;
}

export async function reviewCommand(
  file: string,
  flags: ReviewFlags,
  out: NodeJS.WritableStream,
  err: NodeJS.WritableStream,
): Promise<number> {
  const loaded = await loadConfiguration(flags.config);
  if (!loaded.ok) {
    for (const e of loaded.error) err.write(`${formatConfigError(e)}\n`);
    return 1;
  }
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    err.write(`hookgate review: cannot read ${file}: ${(e as Error).message}\n`);
    return 1;
  }
  const input = readReviewInput(text, {
    operation: flags.operation,
    user: flags.user,
    ...(flags.resource ? { resource: flags.resource } : {}),
    ...(flags.namespace ? { namespace: flags.namespace } : {}),
    ...(flags.dryRun ? { dryRun: true } : {}),
  });
  if (!input.ok) {
    err.write(`hookgate review: ${file}: ${input.error}\n`);
    return 1;
  }
  const result = await dryRunReview(loaded.value, input.request, flags.timeout);
  const allowed = result.mutating.allowed && (result.validating?.allowed ?? false);
  if (flags.output === 'json') {
    out.write(
      `${JSON.stringify({ allowed, mutating: strip(result.mutating), validating: result.validating && strip(result.validating) }, null, 2)}\n`,
    );
  } else {
    const r = input.request;
    out.write(
      `${r.operation} ${r.resource.group === '' ? '' : `${r.resource.group}/`}${r.resource.version}/${r.resource.resource} ${r.namespace ? `${r.namespace}/` : ''}${r.name ?? ''}\n`,
    );
    out.write(`${formatOutcome('mutating', result.mutating)}\n`);
    if (result.validating) out.write(`${formatOutcome('validating', result.validating)}\n`);
    out.write(`decision: ${allowed ? 'allowed' : 'denied'}\n`);
  }
  return allowed ? 0 : 2;
}

/** Side-effect payloads are opaque bytes: leave them out of the report. */
function strip<T extends { sideEffects: readonly { payload?: unknown }[] }>(outcome: T): T {
  return { ...outcome, sideEffects: outcome.sideEffects.map(({ payload: _payload, ...rest }) => rest) };
}
