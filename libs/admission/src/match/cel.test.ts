// Compile-time behaviour of match-condition expressions (k8s-semantics §9, apiserver cel/compile.go).
import { describe, expect, it } from 'vitest';
import { celErrorText, checkMatchConditionExpression } from './cel.js';

describe('checkMatchConditionExpression: accepted (compiles to bool)', () => {
  it.each([
    ['literal', 'true'],
    ['object field', "object.metadata.name == 'x'"],
    ['has()', 'has(object.metadata.labels)'],
    ['in on a map', "'app' in object.metadata.labels"],
    ['oldObject null check', 'oldObject == null'],
    ['namespaceObject null check', 'namespaceObject == null'],
    ['request operation', "request.operation == 'CREATE'"],
    ['request kind', "request.kind.group == 'apps' && request.kind.kind == 'Deployment'"],
    ['request resource and subresource', "request.resource.resource == 'pods' && request.subResource == 'status'"],
    [
      'request requestKind/requestResource',
      "request.requestKind.version == 'v1' && request.requestResource.group == ''",
    ],
    ['request name/namespace', "request.name == 'x' && request.namespace == 'y'"],
    ['request dryRun is a bool', 'request.dryRun'],
    ['request options is dyn', "request.options.fieldManager == 'kubectl'"],
    ['userInfo groups', "request.userInfo.groups.exists(g, g == 'system:masters')"],
    ['userInfo extra', "request.userInfo.extra['scopes'].size() > 0"],
    ['userInfo username', "request.userInfo.username.startsWith('system:serviceaccount:')"],
    ['macros', "object.spec.containers.all(c, c.image.startsWith('registry.example.com/'))"],
    ['optional chaining', "object.?metadata.?labels.?app.orValue('') == 'web'"],
    ['cel.bind', 'cel.bind(n, object.metadata.name, n.size() > 3)'],
    ['authorizer', "authorizer.requestResource.check('create').allowed()"],
    [
      'authorizer builder',
      "authorizer.group('apps').resource('deployments').namespace('ns').name('x').check('get').allowed()",
    ],
    ['authorizer path', "authorizer.path('/healthz').check('get').allowed()"],
    [
      'authorizer service account',
      "authorizer.serviceAccount('ns', 'sa').group('').resource('pods').check('list').reason() == ''",
    ],
    ['string ext', "object.metadata.name.lowerAscii().split('-').size() == 2"],
    ['list lib', 'object.spec.ports.map(p, p.port).max() < 1024'],
    ['sets', "sets.contains(request.userInfo.groups, ['a'])"],
    ['regex find', "object.metadata.name.find('[0-9]+') != ''"],
  ])('%s', (_name, expression) => {
    expect(checkMatchConditionExpression(expression)).toBeUndefined();
  });
});

describe('checkMatchConditionExpression: rejected', () => {
  it.each([
    ['syntax error', '1 +', 'compilation failed: ERROR: <input>:1:4: '],
    ['syntax error on line 2', 'object.x == 1 &&\n  )', 'compilation failed: ERROR: <input>:2:'],
    ['string result', "'x'", 'must evaluate to bool but got string'],
    ['int result', '1', 'must evaluate to bool but got int'],
    ['dyn result is not bool', 'object.spec.enabled', 'must evaluate to bool but got dyn'],
    ['params is not declared for webhooks', 'params.x == 1', 'compilation failed: ERROR: <input>:1:1: '],
    ['variables is not declared for webhooks', 'variables.x == 1', 'compilation failed: '],
    ['unknown request field', "request.foo == 'x'", "undefined field 'foo'"],
    ['request.uid is not declared', "request.uid == ''", "undefined field 'uid'"],
    ['request.object is not declared', 'request.object == null', "undefined field 'object'"],
    ['typed request field with the wrong type', 'request.operation == 1', 'compilation failed: '],
    ['heterogeneous list literal', "[1, 'a'].size() == 2", 'compilation failed: '],
    ['unknown function', 'object.x.frobnicate()', 'compilation failed: '],
    ['empty expression', '', 'compilation failed: '],
  ])('%s', (_name, expression, prefix) => {
    expect(checkMatchConditionExpression(expression)).toContain(prefix);
  });
});

describe('celErrorText', () => {
  it.each([
    ['lower-cases cel-js capitalised messages', { summary: 'No such key: x' }, 'no such key: x'],
    ['keeps acronyms', { message: 'URL invalid' }, 'URL invalid'],
    ['first line only', { message: 'bad thing\n\n> 1 | x' }, 'bad thing'],
    ['plain errors', new Error('boom'), 'boom'],
    ['non-errors', 'text', 'text'],
  ] as [string, unknown, string][])('%s', (_name, error, want) => expect(celErrorText(error)).toBe(want));
});
