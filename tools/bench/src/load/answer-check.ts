/**
 * Checks an AdmissionReview answer the cheap way: the uid and `"allowed":true` are found in the
 * bytes and the patch (if any) is cut out, without parsing the whole answer. Both the gateway and
 * the baseline webhooks answer with JSON.stringify output (no whitespace); anything else, or a
 * failed check, falls back to a full parse for a precise error.
 */
export interface CheckedAnswer {
  /** base64 JSONPatch, when the hook sent one. */
  readonly patch: string | undefined;
}

const ALLOWED = '"allowed":true';
const PATCH = '"patch":"';

export function checkAnswer(url: string, statusCode: number, body: Buffer, uid: string): CheckedAnswer {
  const text = body.toString('latin1');
  if (statusCode !== 200) throw new Error(`${url}: HTTP ${statusCode}: ${text.slice(0, 300)}`);
  if (text.includes(`"uid":"${uid}"`) && text.includes(ALLOWED)) {
    const at = text.indexOf(PATCH);
    if (at < 0) return { patch: undefined };
    const from = at + PATCH.length;
    const to = text.indexOf('"', from);
    if (to > from) return { patch: text.slice(from, to) };
  }
  return fullCheck(url, body, uid);
}

interface AdmissionResponse {
  uid?: string;
  allowed?: boolean;
  patch?: string;
  status?: { message?: string };
}

function fullCheck(url: string, body: Buffer, uid: string): CheckedAnswer {
  let response: AdmissionResponse | undefined;
  try {
    response = (JSON.parse(body.toString('utf8')) as { response?: AdmissionResponse }).response;
  } catch {
    throw new Error(`${url}: the answer is not JSON: ${body.toString('utf8').slice(0, 300)}`);
  }
  if (response?.uid !== uid)
    throw new Error(`${url}: the answer's uid ${JSON.stringify(response?.uid)} is not the request's ${uid}`);
  if (response.allowed !== true)
    throw new Error(`${url}: denied: ${response.status?.message ?? 'without explanation'}`);
  return { patch: response.patch };
}
