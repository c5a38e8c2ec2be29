import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeReview, decodeReviewText } from './decode.js';

const CORPUS = new URL('../../../../test/fixtures/corpus/admission-reviews/', import.meta.url);

type Obj = Record<string, unknown>;
const request = (overrides: Obj = {}): Obj => ({
  uid: 'u-1',
  kind: { group: '', version: 'v1', kind: 'Pod' },
  resource: { group: '', version: 'v1', resource: 'pods' },
  operation: 'CREATE',
  userInfo: { username: 'alice' },
  ...overrides,
});
const review = (req: unknown, top: Obj = {}): Obj => ({
  apiVersion: 'admission.k8s.io/v1',
  kind: 'AdmissionReview',
  request: req,
  ...top,
});

describe('decodeReview: accepted shapes', () => {
  it('decodes v1 and remembers the version', () => {
    const r = decodeReview(review(request()));
    expect(r).toEqual({
      ok: true,
      value: {
        version: 'v1',
        request: {
          uid: 'u-1',
          kind: { group: '', version: 'v1', kind: 'Pod' },
          resource: { group: '', version: 'v1', resource: 'pods' },
          operation: 'CREATE',
          userInfo: { username: 'alice' },
        },
      },
    });
  });

  it('decodes v1beta1', () => {
    const r = decodeReview(review(request(), { apiVersion: 'admission.k8s.io/v1beta1' }));
    expect(r.ok && r.value.version).toBe('v1beta1');
  });

  it('copies every known field and drops unknown ones', () => {
    const r = decodeReview(
      review(
        request({
          subResource: 'status',
          requestKind: { group: '', version: 'v1', kind: 'Pod' },
          requestResource: { group: '', version: 'v1', resource: 'pods' },
          requestSubResource: 'status',
          name: 'p',
          namespace: 'default',
          operation: 'UPDATE',
          userInfo: { username: 'u', uid: 'id', groups: ['g'], extra: { scopes: ['a', 'b'] } },
          object: { metadata: { labels: { a: '1' } } },
          oldObject: { metadata: {} },
          dryRun: true,
          options: { kind: 'UpdateOptions' },
          surprise: 'dropped',
        }),
      ),
    );
    expect(r.ok && r.value.request).toEqual({
      uid: 'u-1',
      kind: { group: '', version: 'v1', kind: 'Pod' },
      resource: { group: '', version: 'v1', resource: 'pods' },
      subResource: 'status',
      requestKind: { group: '', version: 'v1', kind: 'Pod' },
      requestResource: { group: '', version: 'v1', resource: 'pods' },
      requestSubResource: 'status',
      name: 'p',
      namespace: 'default',
      operation: 'UPDATE',
      userInfo: { username: 'u', uid: 'id', groups: ['g'], extra: { scopes: ['a', 'b'] } },
      object: { metadata: { labels: { a: '1' } } },
      oldObject: { metadata: {} },
      dryRun: true,
      options: { kind: 'UpdateOptions' },
    });
  });

  it.each([
    {
      name: 'missing userInfo reads as empty',
      req: request({ userInfo: undefined }),
      check: (q: Obj) => expect(q['userInfo']).toEqual({}),
    },
    {
      name: 'null userInfo reads as empty',
      req: request({ userInfo: null }),
      check: (q: Obj) => expect(q['userInfo']).toEqual({}),
    },
    { name: 'null name is absent', req: request({ name: null }), check: (q: Obj) => expect('name' in q).toBe(false) },
    {
      name: 'null dryRun is absent',
      req: request({ dryRun: null }),
      check: (q: Obj) => expect('dryRun' in q).toBe(false),
    },
    {
      name: 'null oldObject is kept as null',
      req: request({ oldObject: null }),
      check: (q: Obj) => expect(q['oldObject']).toBeNull(),
    },
    { name: 'missing object stays absent', req: request(), check: (q: Obj) => expect('object' in q).toBe(false) },
    {
      name: 'gvk members default to ""',
      req: request({ kind: { kind: 'Pod' } }),
      check: (q: Obj) => expect(q['kind']).toEqual({ group: '', version: '', kind: 'Pod' }),
    },
    {
      name: 'null extra value is an empty list',
      req: request({ userInfo: { extra: { a: null } } }),
      check: (q: Obj) => expect(q['userInfo']).toEqual({ extra: { a: [] } }),
    },
    {
      name: 'an extra key named __proto__ is kept as data',
      req: request({ userInfo: { extra: JSON.parse('{"__proto__": ["x"], "toString": ["y"]}') as unknown } }),
      check: (q: Obj) => expect(JSON.stringify(q['userInfo'])).toBe('{"extra":{"__proto__":["x"],"toString":["y"]}}'),
    },
    {
      name: 'null metadata, labels and annotations read as absent',
      req: request({ object: { metadata: { labels: null, annotations: null } }, oldObject: { metadata: null } }),
      check: (q: Obj) => expect(q['oldObject']).toEqual({ metadata: null }),
    },
    {
      name: 'a label named __proto__ is kept as data',
      req: request({ object: JSON.parse('{"metadata": {"labels": {"__proto__": "x", "app": "web"}}}') as unknown }),
      check: (q: Obj) => {
        const labels = ((q['object'] as Obj)['metadata'] as Obj)['labels'] as Obj;
        expect(Object.getPrototypeOf(labels)).toBe(Object.prototype);
        expect(JSON.stringify(labels)).toBe('{"__proto__":"x","app":"web"}');
      },
    },
    {
      name: 'empty subResource is kept',
      req: request({ subResource: '' }),
      check: (q: Obj) => expect(q['subResource']).toBe(''),
    },
    {
      name: 'CONNECT operation',
      req: request({ operation: 'CONNECT' }),
      check: (q: Obj) => expect(q['operation']).toBe('CONNECT'),
    },
    {
      name: 'DELETE operation',
      req: request({ operation: 'DELETE' }),
      check: (q: Obj) => expect(q['operation']).toBe('DELETE'),
    },
  ])('$name', ({ req, check }) => {
    const r = decodeReview(review(req));
    expect(r.ok).toBe(true);
    if (r.ok) check(r.value.request as unknown as Obj);
  });

  it('does not share the request object with the input', () => {
    const input = review(request({ userInfo: { groups: ['a'] } }));
    const r = decodeReview(input);
    if (!r.ok) throw new Error(r.error.message);
    r.value.request.userInfo.groups!.push('b');
    expect(((input['request'] as Obj)['userInfo'] as Obj)['groups']).toEqual(['a']);
  });
});

describe('decodeReview: rejections name what is wrong', () => {
  const cases: { name: string; body: unknown; field?: string; message: string }[] = [
    {
      name: 'body is a string',
      body: 'x',
      message: 'the request body must be a JSON object (an AdmissionReview), got a string',
    },
    {
      name: 'body is null',
      body: null,
      message: 'the request body must be a JSON object (an AdmissionReview), got null',
    },
    {
      name: 'body is an array',
      body: [],
      message: 'the request body must be a JSON object (an AdmissionReview), got an array',
    },
    {
      name: 'missing apiVersion',
      body: { kind: 'AdmissionReview', request: request() },
      field: 'apiVersion',
      message: 'apiVersion: is missing: expected admission.k8s.io/v1 or admission.k8s.io/v1beta1',
    },
    {
      name: 'unknown apiVersion',
      body: review(request(), { apiVersion: 'admission.k8s.io/v2' }),
      field: 'apiVersion',
      message:
        'apiVersion: unsupported "admission.k8s.io/v2": expected admission.k8s.io/v1 or admission.k8s.io/v1beta1',
    },
    {
      name: 'apiVersion not a string',
      body: review(request(), { apiVersion: 1 }),
      field: 'apiVersion',
      message: 'apiVersion: unsupported a number: expected admission.k8s.io/v1 or admission.k8s.io/v1beta1',
    },
    {
      name: 'wrong kind',
      body: review(request(), { kind: 'Pod' }),
      field: 'kind',
      message: 'kind: must be "AdmissionReview", got "Pod"',
    },
    {
      name: 'missing kind',
      body: review(request(), { kind: undefined }),
      field: 'kind',
      message: 'kind: must be "AdmissionReview", got nothing',
    },
    {
      name: 'missing request',
      body: review(undefined),
      field: 'request',
      message: 'request: is missing: an AdmissionReview sent for admission must carry a request',
    },
    {
      name: 'request is a list',
      body: review([]),
      field: 'request',
      message: 'request: must be an object, got an array',
    },
    {
      name: 'missing uid',
      body: review(request({ uid: undefined })),
      field: 'request.uid',
      message: 'request.uid: is required: the answer must echo the request uid',
    },
    {
      name: 'empty uid',
      body: review(request({ uid: '' })),
      field: 'request.uid',
      message: 'request.uid: is required: the answer must echo the request uid',
    },
    {
      name: 'uid not a string',
      body: review(request({ uid: 5 })),
      field: 'request.uid',
      message: 'request.uid: must be a string, got a number',
    },
    {
      name: 'missing kind object',
      body: review(request({ kind: undefined })),
      field: 'request.kind',
      message: 'request.kind: is required (the group, version and kind of the object)',
    },
    {
      name: 'kind is a string',
      body: review(request({ kind: 'Pod' })),
      field: 'request.kind',
      message: 'request.kind: must be an object {group, version, kind}, got a string',
    },
    {
      name: 'kind member not a string',
      body: review(request({ kind: { group: '', version: 1, kind: 'Pod' } })),
      field: 'request.kind.version',
      message: 'request.kind.version: must be a string, got a number',
    },
    {
      name: 'missing resource',
      body: review(request({ resource: undefined })),
      field: 'request.resource',
      message: 'request.resource: is required (the group, version and resource being admitted)',
    },
    {
      name: 'resource is a list',
      body: review(request({ resource: ['pods'] })),
      field: 'request.resource',
      message: 'request.resource: must be an object {group, version, resource}, got an array',
    },
    {
      name: 'missing operation',
      body: review(request({ operation: undefined })),
      field: 'request.operation',
      message: 'request.operation: must be one of CREATE, UPDATE, DELETE, CONNECT, got nothing',
    },
    {
      name: 'unknown operation',
      body: review(request({ operation: 'PATCH' })),
      field: 'request.operation',
      message: 'request.operation: must be one of CREATE, UPDATE, DELETE, CONNECT, got "PATCH"',
    },
    {
      name: 'lowercase operation',
      body: review(request({ operation: 'create' })),
      field: 'request.operation',
      message: 'request.operation: must be one of CREATE, UPDATE, DELETE, CONNECT, got "create"',
    },
    {
      name: 'userInfo is a string',
      body: review(request({ userInfo: 'alice' })),
      field: 'request.userInfo',
      message: 'request.userInfo: must be an object, got a string',
    },
    {
      name: 'username not a string',
      body: review(request({ userInfo: { username: 1 } })),
      field: 'request.userInfo.username',
      message: 'request.userInfo.username: must be a string, got a number',
    },
    {
      name: 'groups not a list',
      body: review(request({ userInfo: { groups: 'g' } })),
      field: 'request.userInfo.groups',
      message: 'request.userInfo.groups: must be a list of strings, got a string',
    },
    {
      name: 'group not a string',
      body: review(request({ userInfo: { groups: ['a', 2] } })),
      field: 'request.userInfo.groups[1]',
      message: 'request.userInfo.groups[1]: must be a string, got a number',
    },
    {
      name: 'extra not a map',
      body: review(request({ userInfo: { extra: ['a'] } })),
      field: 'request.userInfo.extra',
      message: 'request.userInfo.extra: must be a map of string lists, got an array',
    },
    {
      name: 'extra value not a list',
      body: review(request({ userInfo: { extra: { a: 'b' } } })),
      field: 'request.userInfo.extra[a]',
      message: 'request.userInfo.extra[a]: must be a list of strings, got a string',
    },
    {
      name: 'dryRun not a boolean',
      body: review(request({ dryRun: 'true' })),
      field: 'request.dryRun',
      message: 'request.dryRun: must be a boolean, got a string',
    },
    {
      name: 'subResource not a string',
      body: review(request({ subResource: 1 })),
      field: 'request.subResource',
      message: 'request.subResource: must be a string, got a number',
    },
    {
      name: 'namespace not a string',
      body: review(request({ namespace: {} })),
      field: 'request.namespace',
      message: 'request.namespace: must be a string, got an object',
    },
    {
      name: 'requestKind not an object',
      body: review(request({ requestKind: 'x' })),
      field: 'request.requestKind',
      message: 'request.requestKind: must be an object {group, version, kind}, got a string',
    },
    {
      name: 'object is a string',
      body: review(request({ object: 'x' })),
      field: 'request.object',
      message: 'request.object: must be a JSON object or null, got a string',
    },
    {
      name: 'options is a number',
      body: review(request({ options: 3 })),
      field: 'request.options',
      message: 'request.options: must be a JSON object or null, got a number',
    },
    {
      name: 'object is an array',
      body: review(request({ object: [1, 2] })),
      field: 'request.object',
      message: 'request.object: must be a JSON object or null, got an array',
    },
    {
      name: 'object metadata is a string',
      body: review(request({ object: { metadata: 'x' } })),
      field: 'request.object.metadata',
      message: 'request.object.metadata: must be an object, got a string',
    },
    {
      name: 'oldObject metadata is an array',
      body: review(request({ operation: 'UPDATE', object: {}, oldObject: { metadata: [] } })),
      field: 'request.oldObject.metadata',
      message: 'request.oldObject.metadata: must be an object, got an array',
    },
    {
      name: 'labels are a list',
      body: review(request({ object: { metadata: { labels: ['app=web'] } } })),
      field: 'request.object.metadata.labels',
      message: 'request.object.metadata.labels: must be a map of strings, got an array',
    },
    {
      name: 'a label value is a number',
      body: review(request({ object: { metadata: { labels: { app: 'web', tier: 1 } } } })),
      field: 'request.object.metadata.labels[tier]',
      message: 'request.object.metadata.labels[tier]: must be a string, got a number',
    },
    {
      name: 'a label value is null',
      body: review(request({ oldObject: { metadata: { labels: { app: null } } } })),
      field: 'request.oldObject.metadata.labels[app]',
      message: 'request.oldObject.metadata.labels[app]: must be a string, got null',
    },
    {
      name: 'annotations are a string',
      body: review(request({ oldObject: { metadata: { annotations: 'a=b' } } })),
      field: 'request.oldObject.metadata.annotations',
      message: 'request.oldObject.metadata.annotations: must be a map of strings, got a string',
    },
    {
      name: 'an annotation value is an object',
      body: review(request({ object: { metadata: { annotations: { note: { text: 'x' } } } } })),
      field: 'request.object.metadata.annotations[note]',
      message: 'request.object.metadata.annotations[note]: must be a string, got an object',
    },
  ];
  it.each(cases)('$name', ({ body, field, message }) => {
    const r = decodeReview(body);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.message).toBe(message);
      expect(r.error.field).toBe(field);
    }
  });
});

describe('decodeReview: members inside __proto__ or inherited are absent', () => {
  const gvk = '{"group": "", "version": "v1", "kind": "Pod"}';
  const gvr = '{"group": "", "version": "v1", "resource": "pods"}';
  const head = '"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview"';
  const stanza = (members: string) => `{"uid": "u-1", "operation": "CREATE", ${members}}`;
  // Text, not object literals: in a literal `__proto__:` sets the prototype; JSON.parse makes a member.
  const hostile = [
    {
      name: 'the whole request',
      text: `{${head}, "__proto__": {"request": ${stanza(`"kind": ${gvk}, "resource": ${gvr}`)}}}`,
      message: 'request: is missing: an AdmissionReview sent for admission must carry a request',
    },
    {
      name: 'request.kind',
      text: `{${head}, "request": ${stanza(`"resource": ${gvr}, "__proto__": {"kind": ${gvk}}`)}}`,
      message: 'request.kind: is required (the group, version and kind of the object)',
    },
    {
      name: 'request.resource',
      text: `{${head}, "request": ${stanza(`"kind": ${gvk}, "__proto__": {"resource": ${gvr}}`)}}`,
      message: 'request.resource: is required (the group, version and resource being admitted)',
    },
    {
      name: 'request.kind and request.resource',
      text: `{${head}, "request": ${stanza(`"__proto__": {"kind": ${gvk}, "resource": ${gvr}}`)}}`,
      message: 'request.kind: is required (the group, version and kind of the object)',
    },
    {
      name: 'request.uid',
      text: `{${head}, "request": {"operation": "CREATE", "kind": ${gvk}, "resource": ${gvr}, "__proto__": {"uid": "u-1"}}}`,
      message: 'request.uid: is required: the answer must echo the request uid',
    },
    {
      name: 'apiVersion',
      text: `{"kind": "AdmissionReview", "__proto__": {"apiVersion": "admission.k8s.io/v1"}, "request": ${stanza(`"kind": ${gvk}, "resource": ${gvr}`)}}`,
      message: 'apiVersion: is missing: expected admission.k8s.io/v1 or admission.k8s.io/v1beta1',
    },
  ];
  it.each(hostile)('refuses $name found only inside __proto__', ({ text, message }) => {
    const r = decodeReviewText(text);
    expect(!r.ok && r.error.message).toBe(message);
  });

  it('keeps a __proto__ member of the object as data, never as a prototype', () => {
    const text = `{${head}, "request": ${stanza(`"kind": ${gvk}, "resource": ${gvr}, "object": {"__proto__": {"metadata": {"labels": 1}}}`)}}`;
    const r = decodeReviewText(text);
    if (!r.ok) throw new Error(r.error.message);
    const object = r.value.request.object as Obj;
    expect(Object.getPrototypeOf(object)).toBe(Object.prototype);
    expect(Object.keys(object)).toEqual(['__proto__']);
    expect(object['metadata']).toBeUndefined();
  });

  it('refuses required members that an object only inherits', () => {
    const inherited = Object.create(request()) as Obj;
    inherited['uid'] = 'u-2';
    expect(decodeReview(review(inherited))).toMatchObject({
      ok: false,
      error: {
        field: 'request.kind',
        message: 'request.kind: is required (the group, version and kind of the object)',
      },
    });
    const body = Object.create(review(request())) as Obj;
    expect(decodeReview(body)).toMatchObject({ ok: false, error: { field: 'apiVersion' } });
  });

  it('is not fooled by a polluted Object.prototype', () => {
    const polluted = ['request', 'kind', 'resource'] as const;
    for (const key of polluted) {
      Object.defineProperty(Object.prototype, key, { value: request()[key] ?? request(), configurable: true });
    }
    try {
      expect(decodeReview({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview' })).toMatchObject({
        ok: false,
        error: { field: 'request' },
      });
      const r = decodeReview(review({ uid: 'u-1', operation: 'CREATE' }));
      expect(!r.ok && r.error.field).toBe('request.kind');
    } finally {
      for (const key of polluted) delete (Object.prototype as Obj)[key];
    }
  });
});

describe('decodeReviewText', () => {
  it('parses and decodes', () => {
    expect(decodeReviewText(JSON.stringify(review(request()))).ok).toBe(true);
  });
  it.each([
    { name: 'empty body', text: '' },
    { name: 'truncated', text: '{"apiVersion":' },
    { name: 'not json', text: 'hello' },
  ])('reports invalid JSON clearly: $name', ({ text }) => {
    const r = decodeReviewText(text);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toMatch(/^the request body is not valid JSON: /);
  });
  it('reports a valid JSON non-object through decodeReview', () => {
    const r = decodeReviewText('[1]');
    expect(!r.ok && r.error.message).toBe('the request body must be a JSON object (an AdmissionReview), got an array');
  });
});

describe('decodeReview: the corpus', () => {
  const files = readdirSync(CORPUS).filter((f) => f.endsWith('.json'));
  it('has the 20 corpus reviews', () => expect(files).toHaveLength(20));

  it.each(files.map((file) => ({ name: file, file })))('$name', ({ file }) => {
    const text = readFileSync(new URL(file, CORPUS), 'utf8');
    const raw = JSON.parse(text) as { apiVersion: string; request: Obj };
    const r = decodeReviewText(text);
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.version).toBe(raw.apiVersion === 'admission.k8s.io/v1beta1' ? 'v1beta1' : 'v1');
    const q = r.value.request;
    expect(q.uid).toBe(raw.request['uid']);
    expect(q.operation).toBe(raw.request['operation']);
    expect(q.kind).toEqual({ group: '', version: '', kind: '', ...(raw.request['kind'] as Obj) });
    // Objects are passed through untouched (non-string label values included).
    if (raw.request['object'] !== undefined) expect(q.object).toEqual(raw.request['object']);
    if (raw.request['oldObject'] !== undefined) expect(q.oldObject).toEqual(raw.request['oldObject']);
  });

  it('keeps non-string label values of the prometheus v1beta1 review untouched', () => {
    const text = readFileSync(
      new URL('prometheus-operator-prometheusrule-create-v1beta1-nonstring-labels.json', CORPUS),
      'utf8',
    );
    const r = decodeReviewText(text);
    if (!r.ok) throw new Error(r.error.message);
    const spec = (r.value.request.object as Obj)['spec'] as { groups: { rules: { labels: Obj }[] }[] };
    expect(spec.groups[0]!.rules[0]!.labels).toEqual({
      severity: 'critical',
      labNil: null,
      labInt: 1,
      labEmpty: '',
      labBool: true,
    });
  });
});

describe('decodeReview: properties', () => {
  it('never throws on arbitrary JSON and every rejection has a message', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const r = decodeReview(value);
        if (!r.ok) expect(r.error.message.length).toBeGreaterThan(0);
      }),
      { numRuns: 500 },
    );
  });

  it('never throws on review-shaped objects with arbitrary members', () => {
    const member = fc.oneof(fc.jsonValue(), fc.constant(undefined));
    const arbRequest = fc.record(
      {
        uid: fc.oneof(fc.string(), member),
        kind: fc.oneof(fc.record({ group: member, version: member, kind: member }), member),
        resource: fc.oneof(fc.record({ group: member, version: member, resource: member }), member),
        operation: fc.oneof(fc.constantFrom('CREATE', 'UPDATE', 'DELETE', 'CONNECT'), member),
        userInfo: fc.oneof(fc.record({ username: member, groups: member, extra: member }), member),
        dryRun: member,
        object: member,
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(
        fc.constantFrom('admission.k8s.io/v1', 'admission.k8s.io/v1beta1', 'x'),
        arbRequest,
        (apiVersion, req) => {
          const r = decodeReview({ apiVersion, kind: 'AdmissionReview', request: req });
          if (!r.ok) expect(r.error.message.length).toBeGreaterThan(0);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('never throws on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const r = decodeReviewText(text);
        if (!r.ok) expect(r.error.message.length).toBeGreaterThan(0);
      }),
      { numRuns: 300 },
    );
  });
});
