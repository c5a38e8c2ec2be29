/**
 * Sends AdmissionReviews the way the apiserver does: POST, application/json, `?timeout=`, over http
 * or https (trusting the gateway's CA), optionally with a client certificate or bearer token.
 */
import { Agent, request } from 'undici';
import type { AdmissionReview } from '@hookgate/admission';

export interface AdmissionClientOptions {
  /** PEM of the CA that signs the gateway's serving certificate (https). */
  readonly ca?: string;
  readonly clientCert?: { certPem: string; keyPem: string };
}

export interface AdmissionAnswer {
  readonly status: number;
  readonly review: AdmissionReview;
  readonly text: string;
}

export class AdmissionClient {
  readonly #agent: Agent;

  constructor(
    readonly baseUrl: string,
    options: AdmissionClientOptions = {},
  ) {
    this.#agent = new Agent({
      connect: {
        ...(options.ca ? { ca: options.ca } : {}),
        ...(options.clientCert ? { cert: options.clientCert.certPem, key: options.clientCert.keyPem } : {}),
      },
    });
  }

  /** POST a review (object, or raw text sent as-is) to /mutate or /validate. */
  async post(
    path: '/mutate' | '/validate' | string,
    body: unknown,
    options: { timeout?: string; headers?: Record<string, string> } = {},
  ): Promise<AdmissionAnswer> {
    const query = options.timeout ? `?timeout=${options.timeout}` : '';
    const res = await request(`${this.baseUrl}${path}${query}`, {
      method: 'POST',
      dispatcher: this.#agent,
      headers: { 'content-type': 'application/json', ...options.headers },
      body: typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body),
    });
    const text = await res.body.text();
    let review: AdmissionReview;
    try {
      review = JSON.parse(text) as AdmissionReview;
    } catch {
      review = { apiVersion: '', kind: 'AdmissionReview' };
    }
    return { status: res.statusCode, review, text };
  }

  close(): Promise<void> {
    return this.#agent.close();
  }
}

/** An AdmissionReview around a request, as the apiserver sends it. */
export function wrapReview(request: unknown, apiVersion = 'admission.k8s.io/v1'): AdmissionReview {
  return { apiVersion, kind: 'AdmissionReview', request } as AdmissionReview;
}

export function decodePatch(patch: string | undefined): unknown[] | undefined {
  return patch === undefined ? undefined : (JSON.parse(Buffer.from(patch, 'base64').toString('utf8')) as unknown[]);
}
