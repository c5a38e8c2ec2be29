/**
 * The four built-in plugins end to end, as an operator runs them: each its own process from its
 * src/main.ts with its shipped config.example.yaml (the ledger's with a key prefix of this run),
 * the gateway process configured with their shipped webhooks.yaml, real gRPC over unix sockets,
 * a real Redis for the ledger. Reviews come from the corpus where it has them.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { ensureRedis, startGateway, type GatewayProcess, type RedisHandle } from '@hookgate/devtools';
import { applyPatch, decodePatch as decodeJsonPatch, type AdmissionRequest, type JsonValue } from '@hookgate/admission';
import { admit, admitMessage, reconcile } from '@hookgate/plugin-sdk/testing';
import { newAdmissionPluginClient } from '@hookgate/proto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { AdmissionClient, decodePatch } from '../src/admission-client.js';
import { BUILTIN_PLUGINS, builtinGatewayConfig, pluginFile, type BuiltinPlugin } from '../src/builtin-plugins.js';
import { corpusReview, inNamespace, type CorpusReview } from '../src/corpus.js';
import { fetchMetrics, sampleValue } from '../src/metrics-text.js';
import { startBuiltinPlugin, type PluginProcess } from '../src/plugin-process.js';

/** The namespaces the reviews below are in, as the gateway sees them (tiers as in required-labels' config.example.yaml). */
const NAMESPACES: { name: string; labels: Record<string, string> }[] = [
  { name: 'payments', labels: { tier: 'prod' } },
  { name: 'search', labels: { tier: 'prod' } },
  { name: 'sandbox', labels: { tier: 'dev' } },
  { name: 'default', labels: {} },
  { name: 'kube-public', labels: {} },
  { name: 'kube-system', labels: {} },
  { name: 'shop', labels: {} },
  { name: 'opa', labels: {} },
];

describe('the built-in plugins through the gateway process', () => {
  let dir: string;
  let redis: RedisHandle;
  let redisClient: Redis;
  let keyPrefix: string;
  let plugins: PluginProcess[] = [];
  let gateway: GatewayProcess;
  let client: AdmissionClient;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hookgate-builtin-'));
    redis = await ensureRedis();
    redisClient = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    // The shipped ledger configuration, with keys of this run only (the Redis may be shared).
    keyPrefix = `hookgate:e2e:${randomUUID()}:`;
    const ledgerConfig = join(dir, 'ledger.yaml');
    await writeFile(
      ledgerConfig,
      stringify({
        ...(parse(await readFile(pluginFile('ledger', 'config.example.yaml'), 'utf8')) as object),
        keyPrefix,
      }),
    );
    const configOf = (name: BuiltinPlugin) =>
      name === 'ledger' ? ledgerConfig : pluginFile(name, 'config.example.yaml');
    const targets = Object.fromEntries(
      BUILTIN_PLUGINS.map((name) => [name, `unix://${join(dir, `${name}.sock`)}`]),
    ) as Record<BuiltinPlugin, string>;
    plugins = await Promise.all(
      BUILTIN_PLUGINS.map((name) =>
        startBuiltinPlugin(name, { config: configOf(name), listen: targets[name], env: { REDIS_URL: redis.url } }),
      ),
    );
    gateway = await startGateway({
      config: await builtinGatewayConfig(targets, { namespaces: NAMESPACES, workers: 1 }),
    });
    client = new AdmissionClient(gateway.admissionUrl);
  });
  afterAll(async () => {
    await client?.close();
    await gateway?.stop();
    await Promise.all(plugins.map((p) => p.stop()));
    if (redisClient) {
      const keys = await redisClient.keys(`${keyPrefix}*`);
      if (keys.length > 0) await redisClient.del(...keys);
      redisClient.disconnect();
    }
    await redis?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const post = async (path: '/mutate' | '/validate', review: unknown) => {
    const answer = await client.post(path, review, { timeout: '10s' });
    expect(answer.status).toBe(200);
    return answer.review;
  };
  /** One validating case row: the answer echoes the review's version and uid and carries the expected decision. */
  const expectValidated = async ({
    review,
    expected,
  }: {
    review: () => CorpusReview;
    expected: Record<string, unknown>;
  }) => {
    const sent = review();
    const answer = await post('/validate', sent);
    expect(answer.apiVersion).toBe(sent.apiVersion);
    expect(answer.response).toMatchObject({ uid: sent.request.uid, ...expected });
  };

  describe('pod-defaults (mutating)', () => {
    it('defaults a real pod: requests, and labels and annotations from its namespace', async () => {
      const review = inNamespace(corpusReview('kubewarden-policy-server-pod-create'), 'payments');
      const { response } = await post('/mutate', review);
      expect(response).toMatchObject({ uid: review.request.uid, allowed: true, patchType: 'JSONPatch' });
      const patched = patchedObject(review, response?.patch);
      expect(patched).toMatchObject({
        metadata: { labels: { env: 'test', team: 'payments' }, annotations: { 'example.com/cost-center': '4711' } },
      });
      // Both containers already pull IfNotPresent and request nothing: requests only.
      expect(containersOf(patched)).toEqual([
        ['sleeping-sidecar', 'IfNotPresent', { requests: { cpu: '50m', memory: '64Mi' } }],
        ['nginx', 'IfNotPresent', { requests: { cpu: '50m', memory: '64Mi' } }],
      ]);
      expect(response?.auditAnnotations?.['pod-defaults.hookgate.dev_defaulted']).toBe(
        'spec.containers[sleeping-sidecar].resources.requests.cpu,spec.containers[sleeping-sidecar].resources.requests.memory,' +
          'spec.containers[nginx].resources.requests.cpu,spec.containers[nginx].resources.requests.memory,metadata.labels[team],metadata.annotations[example.com/cost-center]',
      );
    });

    it('changes nothing the second time (idempotent: the apiserver may reinvoke it)', async () => {
      const review = inNamespace(corpusReview('kubewarden-policy-server-pod-create'), 'payments');
      const first = await post('/mutate', review);
      const again = { ...review, request: { ...review.request, object: patchedObject(review, first.response?.patch) } };
      const { response } = await post('/mutate', again);
      expect(response).toEqual({ uid: review.request.uid, allowed: true, auditAnnotations: expect.any(Object) });
      expect(response?.patch).toBeUndefined();
    });

    it('answers a v1beta1 review in v1beta1, keeping what the pod sets', async () => {
      const review = corpusReview('opa-docs-pod-create-v1beta1');
      const answer = await post('/mutate', review);
      expect(answer.apiVersion).toBe('admission.k8s.io/v1beta1');
      // imagePullPolicy: Always is the pod's own: only the requests are added; namespace opa has no labels to copy.
      expect(containersOf(patchedObject(review, answer.response?.patch))).toEqual([
        ['nginx', 'Always', { requests: { cpu: '50m', memory: '64Mi' } }],
      ]);
    });

    it('leaves kube-system alone (namespaceSelector, evaluated by the gateway)', async () => {
      const { response } = await post(
        '/mutate',
        inNamespace(corpusReview('kubewarden-policy-server-pod-create'), 'kube-system'),
      );
      expect(response).toEqual({ uid: expect.any(String), allowed: true });
    });
  });

  describe('required-labels (validating)', () => {
    const deployment = () => corpusReview('linkerd-deployment-create-v1beta1');
    const labelled = (review: CorpusReview, labels: Record<string, string>): CorpusReview => {
      const object = review.request.object!;
      return {
        ...review,
        request: { ...review.request, object: { ...object, metadata: { ...object.metadata, labels } } },
      };
    };
    const cases = [
      {
        name: 'a Deployment in kube-public is not checked (namespaceSelector)',
        review: () => deployment(),
        expected: { allowed: true },
      },
      {
        name: 'a Deployment in a prod namespace without the required labels is denied, every label named',
        review: () => inNamespace(deployment(), 'payments'),
        expected: {
          allowed: false,
          status: {
            code: 403,
            message:
              'admission webhook "required-labels.hookgate.dev" denied the request: Deployment "payments/nginx" does not carry the required labels: ' +
              'rule "ownership": missing label "team" (allowed: "payments", "search", "platform"); missing label "cost-center" (must match /[0-9]{4}/); ' +
              'rule "app-name": missing label "app.kubernetes.io/name"',
          },
        },
      },
      {
        name: 'a label with a value out of the allowed set is denied with the value',
        review: () =>
          labelled(inNamespace(deployment(), 'payments'), {
            app: 'nginx',
            team: 'marketing',
            'cost-center': '4711',
            'app.kubernetes.io/name': 'nginx',
          }),
        expected: {
          allowed: false,
          status: {
            code: 403,
            message:
              'admission webhook "required-labels.hookgate.dev" denied the request: Deployment "payments/nginx" does not carry the required labels: ' +
              'rule "ownership": label "team" has value "marketing" (allowed: "payments", "search", "platform")',
          },
        },
      },
      {
        name: 'a Deployment with the required labels is allowed',
        review: () =>
          labelled(inNamespace(deployment(), 'payments'), {
            app: 'nginx',
            team: 'payments',
            'cost-center': '4711',
            'app.kubernetes.io/name': 'nginx',
          }),
        expected: { allowed: true },
      },
      {
        name: 'a Namespace is checked by its own labels',
        review: () => corpusReview('kubewarden-namespace-create'),
        expected: {
          allowed: false,
          status: {
            code: 403,
            message:
              'admission webhook "required-labels.hookgate.dev" denied the request: Namespace "one" does not carry the required labels: ' +
              'rule "namespace-tier": missing label "tier" (allowed: "prod", "dev")',
          },
        },
      },
      {
        name: 'a Namespace with its tier is allowed',
        review: () => labelled(corpusReview('kubewarden-namespace-create'), { tier: 'dev' }),
        expected: { allowed: true },
      },
    ];
    it.each(cases)('$name', expectValidated);
  });

  describe('immutable-fields (validating)', () => {
    const vpc = (forProvider: Record<string, unknown>) => ({
      apiVersion: 'ec2.aws.crossplane.io/v1beta1',
      kind: 'VPC',
      metadata: { name: 'main' },
      spec: { forProvider },
    });
    const subnet = (forProvider: Record<string, unknown>) => ({
      apiVersion: 'ec2.aws.crossplane.io/v1beta1',
      kind: 'Subnet',
      metadata: { name: 'a' },
      spec: { forProvider },
    });
    const rds = (forProvider: Record<string, unknown>) => ({
      apiVersion: 'database.aws.crossplane.io/v1beta1',
      kind: 'RDSInstance',
      metadata: { name: 'db' },
      spec: { forProvider },
    });
    const cases = [
      {
        name: 'changing a VPC cidrBlock is refused, naming the field and both values',
        review: () =>
          updateReview(
            'ec2.aws.crossplane.io',
            'VPC',
            'vpcs',
            vpc({ region: 'eu-west-1', cidrBlock: '10.0.0.0/16' }),
            vpc({ region: 'eu-west-1', cidrBlock: '10.1.0.0/16' }),
          ),
        expected: {
          allowed: false,
          status: {
            code: 422,
            message:
              'admission webhook "immutable-fields.hookgate.dev" denied the request: VPC.ec2.aws.crossplane.io "main" is invalid: ' +
              'spec.forProvider.cidrBlock: cannot be changed once set (was "10.0.0.0/16", now "10.1.0.0/16")',
          },
        },
      },
      {
        name: 'a field unset before may be set once',
        review: () =>
          updateReview(
            'ec2.aws.crossplane.io',
            'VPC',
            'vpcs',
            vpc({ cidrBlock: '10.0.0.0/16' }),
            vpc({ region: 'eu-west-1', cidrBlock: '10.0.0.0/16' }),
          ),
        expected: { allowed: true },
      },
      {
        name: 'removing a set field (by kind: Subnet) is a change too',
        review: () =>
          updateReview(
            'ec2.aws.crossplane.io',
            'Subnet',
            'subnets',
            subnet({ vpcId: 'vpc-1', availabilityZone: 'eu-west-1a' }),
            subnet({ vpcId: 'vpc-1' }),
          ),
        expected: {
          allowed: false,
          status: {
            code: 422,
            message: expect.stringContaining(
              'Subnet.ec2.aws.crossplane.io "a" is invalid: spec.forProvider.availabilityZone: cannot be changed once set (was "eu-west-1a", now <unset>)',
            ),
          },
        },
      },
      {
        name: 'other fields may change',
        review: () =>
          updateReview(
            'ec2.aws.crossplane.io',
            'Subnet',
            'subnets',
            subnet({ vpcId: 'vpc-1', mapPublicIpOnLaunch: false }),
            subnet({ vpcId: 'vpc-1', mapPublicIpOnLaunch: true }),
          ),
        expected: { allowed: true },
      },
      {
        name: 'a v1beta1 review of an RDSInstance is answered in v1beta1',
        review: () =>
          updateReview(
            'database.aws.crossplane.io',
            'RDSInstance',
            'rdsinstances',
            rds({ vpcId: 'vpc-1' }),
            rds({ vpcId: 'vpc-2' }),
            'admission.k8s.io/v1beta1',
          ),
        expected: {
          allowed: false,
          status: {
            code: 422,
            message:
              'admission webhook "immutable-fields.hookgate.dev" denied the request: RDSInstance.database.aws.crossplane.io "db" is invalid: ' +
              'spec.forProvider.vpcId: cannot be changed once set (was "vpc-1", now "vpc-2")',
          },
        },
      },
    ];
    it.each(cases)('$name', expectValidated);
  });

  describe('ledger (validating, with side effects in Redis)', () => {
    const key = (value: string) => `${keyPrefix}hostnames/${value}`;
    const sideEffects = async (kind: string) =>
      sampleValue(await fetchMetrics(gateway.metricsUrl), 'hookgate_admission_webhook_side_effects_total', {
        name: 'ledger.hookgate.dev',
        kind,
        violation: 'none',
      }) ?? 0;

    it('reserves a hostname in Redis and counts the side effect', async () => {
      const review = ingressReview('CREATE', 'shop', 'web', 'Shop.Example.com');
      expect((await post('/validate', review)).response).toEqual({ uid: review.request.uid, allowed: true });
      expect(await redisClient.hgetall(key('shop.example.com'))).toMatchObject({
        owner: 'networking.k8s.io/Ingress/shop/web',
        state: 'pending',
      });
      expect(await sideEffects('reservation')).toBe(1);
    });

    it('refuses the same hostname for another Ingress with 409, naming the holder', async () => {
      const review = ingressReview('CREATE', 'shop', 'web2', 'shop.example.com');
      expect((await post('/validate', review)).response).toMatchObject({
        allowed: false,
        status: {
          code: 409,
          message:
            'admission webhook "ledger.hookgate.dev" denied the request: Ingress "shop/web2": "shop.example.com" (annotation ledger.hookgate.dev/hostname) ' +
            'is already reserved in ledger "hostnames" by Ingress shop/web; choose another value',
        },
      });
      expect(await sideEffects('reservation')).toBe(1);
    });

    it('checks a dryRun request but reserves nothing', async () => {
      const review = ingressReview('CREATE', 'shop', 'preview', 'preview.example.com', { dryRun: true });
      expect((await post('/validate', review)).response).toMatchObject({ allowed: true });
      expect(await redisClient.exists(key('preview.example.com'))).toBe(0);
      expect(await sideEffects('reservation')).toBe(1);
    });

    it('settles the reservation through Reconcile over gRPC: PERSISTED confirms it', async () => {
      const review = ingressReview('CREATE', 'shop', 'web', 'shop.example.com');
      const ledger = newAdmissionPluginClient(
        plugins[BUILTIN_PLUGINS.indexOf('ledger')]!.target,
        grpc.credentials.createInsecure(),
      );
      try {
        // The side effect as the gateway received it: the same admission, asked again (a claim by the same owner is idempotent).
        const admitted = await admit(
          ledger,
          admitMessage('ledger.hookgate.dev', 'VALIDATING', review.request as unknown as AdmissionRequest),
        );
        const reservation = admitted.sideEffects[0]!;
        expect(reservation).toMatchObject({ kind: 'reservation', key: 'hostnames/shop.example.com' });
        const settled = await reconcile(ledger, {
          hook: 'ledger.hookgate.dev',
          sideEffect: reservation,
          outcome: 'PERSISTED',
          object: Buffer.from(JSON.stringify(review.request.object)),
          attempt: 1,
        });
        expect(settled).toMatchObject({ done: true });
      } finally {
        ledger.close();
      }
      expect(await redisClient.hgetall(key('shop.example.com'))).toMatchObject({
        owner: 'networking.k8s.io/Ingress/shop/web',
        state: 'confirmed',
      });
    });

    it('reports a release when the Ingress is deleted', async () => {
      const review = ingressReview('DELETE', 'shop', 'web', 'shop.example.com');
      expect((await post('/validate', review)).response).toMatchObject({ allowed: true });
      expect(await sideEffects('release')).toBe(1);
    });
  });

  it('kept every plugin and worker running throughout', async () => {
    for (const plugin of plugins)
      expect(await Promise.race([plugin.exited, Promise.resolve('running')])).toBe('running');
    expect(gateway.logs.filter((l) => l.msg === 'gateway worker exited unexpectedly; starting a replacement')).toEqual(
      [],
    );
  });
});

/** An UPDATE review of a cluster-scoped object, as the apiserver sends it. */
function updateReview(
  group: string,
  kind: string,
  resource: string,
  oldObject: unknown,
  object: unknown,
  apiVersion = 'admission.k8s.io/v1',
): CorpusReview {
  const version = 'v1beta1';
  return {
    apiVersion,
    kind: 'AdmissionReview',
    request: {
      uid: randomUUID(),
      kind: { group, version, kind },
      resource: { group, version, resource },
      requestKind: { group, version, kind },
      requestResource: { group, version, resource },
      name: (object as { metadata: { name: string } }).metadata.name,
      operation: 'UPDATE',
      userInfo: { username: 'system:serviceaccount:crossplane-system:crossplane', groups: ['system:serviceaccounts'] },
      object: object as Record<string, unknown>,
      oldObject,
      dryRun: false,
      options: { apiVersion: 'meta.k8s.io/v1', kind: 'UpdateOptions' },
    },
  };
}

function ingressReview(
  operation: 'CREATE' | 'DELETE',
  namespace: string,
  name: string,
  hostname: string,
  extra: Record<string, unknown> = {},
): CorpusReview {
  const ingress = {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: { name, namespace, annotations: { 'ledger.hookgate.dev/hostname': hostname } },
    spec: {
      rules: [
        {
          host: hostname.toLowerCase(),
          http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name, port: { number: 80 } } } }] },
        },
      ],
    },
  };
  return {
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: {
      uid: randomUUID(),
      kind: { group: 'networking.k8s.io', version: 'v1', kind: 'Ingress' },
      resource: { group: 'networking.k8s.io', version: 'v1', resource: 'ingresses' },
      name,
      namespace,
      operation,
      userInfo: { username: 'alice', groups: ['system:authenticated'] },
      ...(operation === 'DELETE' ? { object: null, oldObject: ingress } : { object: ingress, oldObject: null }),
      dryRun: false,
      options: { apiVersion: 'meta.k8s.io/v1', kind: operation === 'DELETE' ? 'DeleteOptions' : 'CreateOptions' },
      ...extra,
    } as CorpusReview['request'],
  };
}

function containersOf(pod: JsonValue): [string, string, unknown][] {
  return (
    pod as { spec: { containers: { name: string; imagePullPolicy: string; resources: unknown }[] } }
  ).spec.containers.map((c) => [c.name, c.imagePullPolicy, c.resources]);
}

function patchedObject(review: CorpusReview, patch: string | undefined): JsonValue {
  const operations = decodeJsonPatch(JSON.stringify(decodePatch(patch) ?? []));
  if (!operations.ok) throw new Error(`the gateway returned an invalid patch: ${JSON.stringify(operations.error)}`);
  const result = applyPatch(review.request.object as JsonValue, operations.value);
  if (!result.ok) throw new Error(`the gateway's patch does not apply: ${JSON.stringify(result.error)}`);
  return result.value;
}
