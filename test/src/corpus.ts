/** Real AdmissionReviews from test/fixtures/corpus (collected from public projects), loaded fresh for each use. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '@hookgate/devtools';

export interface CorpusReview {
  apiVersion: string;
  kind: 'AdmissionReview';
  request: Record<string, unknown> & {
    uid: string;
    namespace?: string;
    object?: Record<string, unknown> & { metadata?: Record<string, unknown> };
  };
}

/** `name`: a file of test/fixtures/corpus/admission-reviews, without `.json`. */
export function corpusReview(name: string): CorpusReview {
  return JSON.parse(
    readFileSync(join(REPO_ROOT, 'test/fixtures/corpus/admission-reviews', `${name}.json`), 'utf8'),
  ) as CorpusReview;
}

/** The same review, as if the object were created in `namespace`. */
export function inNamespace(review: CorpusReview, namespace: string): CorpusReview {
  const request = review.request;
  const object =
    request.object === undefined
      ? undefined
      : { ...request.object, metadata: { ...request.object.metadata, namespace } };
  return { ...review, request: { ...request, namespace, ...(object === undefined ? {} : { object }) } };
}
