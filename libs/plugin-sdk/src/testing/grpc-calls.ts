/** The gateway's side of the AdmissionPlugin service, one promise per call, each with a deadline. */
import type {
  AdmissionPluginClient,
  AdmitRequest,
  AdmitResponse__Output,
  ListHeldEffectsRequest,
  ListHeldEffectsResponse__Output,
  ReconcileOrphanRequest,
  ReconcileRequest,
  ReconcileResponse__Output,
} from '@hookgate/proto';
import type { AdmissionRequest } from '@hookgate/admission';

const DEADLINE_MS = 5_000;

export function admitMessage(
  hook: string,
  phase: 'MUTATING' | 'VALIDATING',
  request: AdmissionRequest,
  extra: Partial<AdmitRequest> = {},
): AdmitRequest {
  return { hook, phase, uid: request.uid, request: Buffer.from(JSON.stringify(request)), ...extra };
}

export function admit(client: AdmissionPluginClient, message: AdmitRequest): Promise<AdmitResponse__Output> {
  return new Promise((resolve, reject) => {
    client.Admit(message, { deadline: Date.now() + DEADLINE_MS }, (error, response) =>
      error || !response ? reject(error) : resolve(response),
    );
  });
}

/** Sends every message on one AdmitStream and collects the answers by id (they may come out of order). */
export function admitStream(
  client: AdmissionPluginClient,
  messages: AdmitRequest[],
): Promise<Map<number, AdmitResponse__Output>> {
  return new Promise((resolve, reject) => {
    const answers = new Map<number, AdmitResponse__Output>();
    const stream = client.AdmitStream({ deadline: Date.now() + DEADLINE_MS });
    stream.on('data', (response: AdmitResponse__Output) => answers.set(response.id, response));
    stream.on('error', reject);
    stream.on('end', () => resolve(answers));
    messages.forEach((m, i) => stream.write({ ...m, id: m.id ?? i + 1 }));
    stream.end();
  });
}

export function reconcile(
  client: AdmissionPluginClient,
  message: ReconcileRequest,
): Promise<ReconcileResponse__Output> {
  return new Promise((resolve, reject) => {
    client.Reconcile(message, { deadline: Date.now() + DEADLINE_MS }, (error, response) =>
      error || !response ? reject(error) : resolve(response),
    );
  });
}

export function listHeldEffects(
  client: AdmissionPluginClient,
  message: ListHeldEffectsRequest,
): Promise<ListHeldEffectsResponse__Output> {
  return new Promise((resolve, reject) => {
    client.ListHeldEffects(message, { deadline: Date.now() + DEADLINE_MS }, (error, response) =>
      error || !response ? reject(error) : resolve(response),
    );
  });
}

export function reconcileOrphan(
  client: AdmissionPluginClient,
  message: ReconcileOrphanRequest,
): Promise<ReconcileResponse__Output> {
  return new Promise((resolve, reject) => {
    client.ReconcileOrphan(message, { deadline: Date.now() + DEADLINE_MS }, (error, response) =>
      error || !response ? reject(error) : resolve(response),
    );
  });
}

/** A JSON bytes field of a response (patch, payload); empty bytes read as undefined. */
export function parseJson(bytes: Buffer): unknown {
  return bytes.length === 0 ? undefined : JSON.parse(bytes.toString('utf8'));
}
