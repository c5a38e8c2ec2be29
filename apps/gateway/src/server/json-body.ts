/**
 * The admission routes' body parser: keeps the request bytes (forwarded as-is to plugins while the
 * object is unchanged) and parses them exactly once. Malformed JSON is a 400, never a crash.
 */
import type { FastifyInstance } from 'fastify';
import { redactedJsonSyntaxError } from '@hookgate/admission';
import { badRequest } from './bad-request.js';

/** What an admission route receives as `request.body`. */
export interface AdmissionBody {
  readonly bytes: Buffer;
  readonly value: unknown;
}

export function registerJsonBodyParser(app: FastifyInstance): void {
  // Only JSON: any other content type is fastify's 415, which bad-request.ts turns into a 400.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const charset = charsetOf(request.headers['content-type']);
    if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
      done(
        badRequest(
          `unsupported charset ${JSON.stringify(charset.slice(0, 40))}: send the AdmissionReview as UTF-8 JSON`,
        ),
        undefined,
      );
      return;
    }
    const bytes = body as Buffer;
    if (bytes.length === 0) {
      done(badRequest('request body is empty: expected an AdmissionReview JSON document'), undefined);
      return;
    }
    try {
      done(null, { bytes, value: JSON.parse(bytes.toString('utf8')) } satisfies AdmissionBody);
    } catch {
      // Go's wording without the offending character: V8's message quotes the body around it.
      const problem = redactedJsonSyntaxError(bytes.toString('utf8')) ?? 'unexpected end of JSON input';
      done(badRequest(`request body is not valid JSON: ${problem}`), undefined);
    }
  });
}

/** The charset parameter of a Content-Type, lower-cased; undefined when there is none. */
function charsetOf(contentType: string | undefined): string | undefined {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType ?? '');
  return match?.[1]?.toLowerCase();
}
