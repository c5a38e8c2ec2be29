/**
 * The shape of the shared case tables: data only (webhooks, request, expectations), so the chain's
 * unit tests and the gateway's end-to-end tests over real HTTP run the very same cases.
 */
import type { TestRequestOptions, TestWebhook } from '../builders.js';

export interface CaseExpectation {
  readonly allowed: boolean;
  /** status.code when denied. */
  readonly statusCode?: number;
  /** status.reason when denied. */
  readonly reason?: string;
  /** Exact status.message when denied. */
  readonly message?: string;
  readonly messageContains?: string;
  /** When present: exactly these audit annotations (apiserver-style keys), nothing more. */
  readonly annotations?: Readonly<Record<string, string>>;
  /** When present: the labels of the object after the returned patch is applied. */
  readonly labels?: Readonly<Record<string, string>>;
  /** When present: calls per behaviour (behaviours not listed are not checked; 0 means never called). */
  readonly invocations?: Readonly<Record<string, number>>;
  /** When present: exactly these warnings, in this order. */
  readonly warnings?: readonly string[];
}

export interface ChainCase {
  readonly name: string;
  /** Configuration API version the webhooks are written in. Default v1. */
  readonly configApiVersion?: 'v1' | 'v1beta1';
  readonly webhooks: readonly TestWebhook[];
  readonly request?: TestRequestOptions;
  /** The apiserver's `?timeout=` for the request. Default `10s`. */
  readonly timeout?: string;
  readonly expect: CaseExpectation;
}
