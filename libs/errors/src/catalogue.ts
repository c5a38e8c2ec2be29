/**
 * The catalogue: every HG_ERR_* code Hookgate has, with what it means and what to do. This file
 * is the only place a code is spelt; everything else imports the entry (catalogue.test.ts scans
 * the repository for strays), and docs/errors.md is rendered from it (`npm run docs -w @hookgate/errors`).
 * Never reuse a retired code for something else: operators grep logs and Status bodies for them.
 */
import { defineError } from './define-error.js';

/** Section headings of docs/errors.md: the `<AREA>` of `HG_ERR_<AREA>_<WHAT>`. */
export const AREAS = {
  GATEWAY: {
    title: 'Gateway admission listener',
    about:
      "Answers of the gateway's admission listener. Each is a `metav1.Status` whose `details.causes[0].reason` is the code; the apiserver shows the Status message in its error.",
  },
  PLUGIN: { title: 'Plugin SDK', about: 'Thrown by `@hookgate/plugin-sdk` when a plugin starts.' },
  LEDGER: { title: 'Ledger plugin', about: 'Thrown by the built-in ledger plugin (`apps/plugins/ledger`).' },
  KUBERNETES: {
    title: 'Kubernetes access',
    about:
      'Thrown by `@hookgate/kubernetes` (resource GET and LIST, informers) when the apiserver answers with an error or with something that is not an API object. The gateway turns them into namespace-lookup failures and informer warnings.',
  },
  SPOOL: {
    title: 'Spool',
    about:
      "Thrown by `@hookgate/spool`, the gateway's local durable buffer for side-effect jobs while Redis is unreachable (`spoolDir`).",
  },
  QUEUE: {
    title: 'Reconciliation queue',
    about:
      'Thrown by `@hookgate/queue` when a side-effect reconciliation job cannot be handed to Redis (BullMQ), or when it is given a name it cannot use. A producer error means the job was not acknowledged: the caller keeps it (the spool) and hands it over again later; deterministic job ids make that harmless.',
  },
} as const;

// Gateway: the admission listener's error answers.

export const HG_ERR_GATEWAY_BAD_REQUEST = defineError('HG_ERR_GATEWAY_BAD_REQUEST', '%s', {
  meaning:
    'The gateway answered 400: the request body is empty, not JSON, not a usable AdmissionReview, larger than the body limit, or not `application/json`. The message says which.',
  remedy:
    'The apiserver never sends such a request: look for another client calling the admission port, or a proxy changing the body. The gateway logs a warning for each, with its request id.',
});

export const HG_ERR_GATEWAY_METHOD = defineError('HG_ERR_GATEWAY_METHOD', '%s', {
  meaning: 'The gateway answered 405: `/mutate` or `/validate` was called with a method other than POST.',
  remedy: 'Send admission reviews with POST, as the apiserver does; check the client calling the gateway.',
});

export const HG_ERR_GATEWAY_NOT_FOUND = defineError('HG_ERR_GATEWAY_NOT_FOUND', '%s', {
  meaning:
    'The gateway answered 404: the path is none of `/mutate`, `/validate` and the registration paths `/mutate/fail`, `/mutate/ignore`, `/validate/fail`, `/validate/ignore`.',
  remedy:
    "Point the gateway's webhook registration (`clientConfig.url` or `clientConfig.service.path`) at `/mutate` for the mutating configuration and `/validate` for the validating one.",
});

export const HG_ERR_GATEWAY_LISTEN = defineError(
  'HG_ERR_GATEWAY_LISTEN',
  'cannot listen for %s on %s: %s (%s); the gateway stops',
  {
    meaning:
      '`hookgate serve` could not bind its admission listener or its metrics/health listener (another process holds the address, a privileged port, or an address this host does not have). The gateway logs this one fatal line, with `address` and `cause`, and exits with code 1, so a static pod restarts instead of running without a listener.',
    remedy:
      'Free the address (`ss -ltnp` shows which process holds it: often an old gateway still running) or change `admission.host` / `admission.port` (or `metrics.host` / `metrics.port`); the apiserver registration printed by `hookgate print-webhooks` must name the admission address.',
  },
);

export const HG_ERR_GATEWAY_CLIENT = defineError('HG_ERR_GATEWAY_CLIENT', '%s', {
  meaning:
    'The gateway answered a client error other than a bad review: HTTP it cannot parse (400), a request that did not finish arriving in time (408), headers too large (431), or another 4xx without a code of its own.',
  remedy:
    'The apiserver does not send these: find the other client or proxy on the admission port. Repeated 408s from the apiserver mean the network between them is slower than the request timeout.',
});

export const HG_ERR_GATEWAY_INTERNAL = defineError('HG_ERR_GATEWAY_INTERNAL', '%s', {
  meaning:
    "The gateway answered 500: a defect while handling an admission request. The apiserver then applies the failurePolicy of the gateway's own registration.",
  remedy:
    'Find the error the gateway logged at that time (it carries the request id and the stack trace) and report it.',
});

export const HG_ERR_GATEWAY_SIDE_EFFECT_NOT_RECORDED = defineError(
  'HG_ERR_GATEWAY_SIDE_EFFECT_NOT_RECORDED',
  'the side effects hook %s reported could not be recorded for reconciliation: %s',
  {
    meaning:
      "A hook reported side effects, and the gateway could make their reconciliation jobs durable neither in Redis nor in its local spool (`spoolDir`): Redis did not acknowledge them and the spool is full or cannot be written. The gateway never drops a job silently: the hook fails by its failurePolicy. Under `Fail` the request is denied with this message (in the apiserver's `failed calling webhook` wording); under `Ignore` it is admitted without the job, logged at error and counted in `hookgate_side_effect_unrecorded_total`.",
    remedy:
      'Make Redis reachable again (the message says why it was not used), so the spool drains; if outages this long are expected, raise `spool.maxBytes` (and the disk under `spoolDir`). Check the disk under `spoolDir` when the spool could not be written. Reconcile by hand what the hooks of admitted requests did (their log lines name hook, kind and key).',
  },
);

export const HG_ERR_GATEWAY_UNAUTHENTICATED = defineError('HG_ERR_GATEWAY_UNAUTHENTICATED', '%s', {
  meaning:
    'The gateway answered 401: the admission listener requires a client certificate signed by `admission.tls.clientCAFile` or a bearer token from `admission.bearerTokenFile`, and the request presented neither.',
  remedy:
    "Give the apiserver a webhook kubeconfig (AdmissionConfiguration `kubeConfigFile`) with that client certificate or token for the gateway's address; after rotating the token, check both sides hold the new one.",
});

// Plugin SDK.

export const HG_ERR_PLUGIN_CONFIG_INVALID = defineError(
  'HG_ERR_PLUGIN_CONFIG_INVALID',
  '%s: invalid configuration in %s:\n%s',
  {
    meaning:
      "A plugin's configuration file cannot be used. The error (`PluginConfigError`, with `plugin`, `source` and `problems`) lists every problem, one per line, in the apiserver's field-error wording.",
    remedy: 'Fix every listed field in the named file and start the plugin again.',
  },
);

export const HG_ERR_PLUGIN_DEFINITION_INVALID = defineError(
  'HG_ERR_PLUGIN_DEFINITION_INVALID',
  'invalid plugin %s: %s',
  {
    meaning:
      '`definePlugin` was given a definition it cannot serve (`PluginDefinitionError`): no name, no hooks, a hook without the handler its phase needs, an unknown phase, or a reconcile that is not a function.',
    remedy: "Fix the plugin's source as the message says; docs/write-a-plugin.md shows a complete definition.",
  },
);

// Ledger plugin.

export const HG_ERR_LEDGER_REDIS_UNREACHABLE = defineError(
  'HG_ERR_LEDGER_REDIS_UNREACHABLE',
  'ledger: cannot reach Redis at %s (%s): %s. Start Redis there, or set REDIS_URL to a reachable Redis.',
  {
    meaning:
      'The ledger plugin could not connect to Redis at startup (`RedisUnreachableError`, with the socket error as `cause`). After startup a lost connection is not thrown: each admission fails and the hook failurePolicy decides.',
    remedy:
      'Start Redis at the address in the message, or set `REDIS_URL` to a reachable Redis, then start the plugin again.',
  },
);

// Kubernetes access.

export const HG_ERR_KUBERNETES_API = defineError('HG_ERR_KUBERNETES_API', '%s failed: HTTP %s%s', {
  meaning:
    "The apiserver answered a request with an error status (`KubernetesApiError`: the HTTP status as `status`, the apiserver's Status as `body`; the message names the request and the Status message). 404 means the object or the resource does not exist (`isNotFound`).",
  remedy:
    "By status: 401, the kubeconfig's credentials are wrong or expired; 403, grant the identity in the kubeconfig (the gateway's ServiceAccount in a cluster) get, list and watch on the named resource; 404 on a resource, the API group or version is not served by this cluster; 429 and 5xx, the apiserver is overloaded or failing, and the caller retries.",
});

export const HG_ERR_KUBERNETES_UNEXPECTED_ANSWER = defineError('HG_ERR_KUBERNETES_UNEXPECTED_ANSWER', '%s: %s', {
  meaning:
    'A request succeeded (2xx) but the answer was not what the API returns: not a JSON object, or a list without `items`.',
  remedy:
    "Check that the kubeconfig's server URL points at the apiserver itself, not at a proxy or another service that answers with something else.",
});

// Spool.

export const HG_ERR_SPOOL_FULL = defineError(
  'HG_ERR_SPOOL_FULL',
  'spool %s is full: %s of its %s bytes are used (%s records not yet acknowledged, the oldest %s s old); a record of %s bytes does not fit. The spool never evicts: it drains when its records are handed on (Redis reachable again), or raise its maxBytes.',
  {
    meaning:
      'The spool refused a record because it would exceed `maxBytes`. It never evicts unacknowledged records, so new work is refused (backpressure) until the spool drains; acknowledged records kept only for replay are already given up to make room.',
    remedy:
      "Make the spool's consumer reachable again (for the gateway: Redis), so the spool drains; if outages this long are expected, raise the spool's `maxBytes` (and the disk under `spoolDir`). Until then side-effecting hooks fail by their failurePolicy.",
  },
);

export const HG_ERR_SPOOL_LOCKED = defineError(
  'HG_ERR_SPOOL_LOCKED',
  'spool %s is in use by process %s (lock file %s): two processes must never write one spool.',
  {
    meaning:
      "Another running process (or this one) holds the spool directory's lock file. A lock left by a process that is no longer running is taken over without this error.",
    remedy:
      'Give each process its own `spoolDir`, or stop the other process. If the named pid is not a Hookgate process (the pid was reused after a crash), delete the lock file and start again.',
  },
);

export const HG_ERR_SPOOL_UNREADABLE = defineError('HG_ERR_SPOOL_UNREADABLE', 'spool %s: cannot use %s: %s', {
  meaning:
    'The spool directory holds something the spool cannot read as its own: a foreign file, a segment with another header or format version, or a file it may not read. Damaged records inside a segment are not this error: they are skipped and reported.',
  remedy:
    "Move the named file out of `spoolDir` (the directory must hold only the spool's own files), fix its permissions, or point `spoolDir` at an empty directory. Never delete segments holding unacknowledged records unless losing them is acceptable.",
});

export const HG_ERR_SPOOL_RECORD_TOO_LARGE = defineError(
  'HG_ERR_SPOOL_RECORD_TOO_LARGE',
  'spool %s: a record of %s bytes is larger than maxRecordBytes (%s)',
  {
    meaning: 'A record larger than the `maxRecordBytes` of the spool was appended; it is refused, nothing is written.',
    remedy: 'Keep records small (no object bodies in side-effect payloads), or raise `maxRecordBytes`.',
  },
);

export const HG_ERR_SPOOL_WRITE_FAILED = defineError('HG_ERR_SPOOL_WRITE_FAILED', 'spool %s: writing %s failed: %s', {
  meaning:
    'Writing or fsyncing a segment or the acknowledgement file failed (`cause` holds the system error: ENOSPC, EIO, ...). The records of that write are refused; if the segment could not be restored to its last good length, the spool refuses every later append until it is opened again.',
  remedy:
    'Fix the disk under `spoolDir` (space, errors in the kernel log), then restart the process: opening the spool repairs a torn tail.',
});

// Reconciliation queue.

export const HG_ERR_QUEUE_UNAVAILABLE = defineError('HG_ERR_QUEUE_UNAVAILABLE', '%s: Redis at %s is %s', {
  meaning:
    'The producer did not hand a reconciliation job to Redis (or could not read its `run_id`): its connection is not ready (Redis down, unreachable or still connecting), or Redis did not answer within `addTimeoutMs`. The producer fails fast instead of buffering in memory (`enableOfflineQueue: false`); the job may still land if Redis was only slow, which its deterministic id makes harmless.',
  remedy:
    'Start Redis at the address in the message or fix the network to it (`redis-cli -u <url> ping`); until then jobs wait in the spool. If Redis is up but slow, check its latency (`redis-cli --latency`) and memory (`INFO memory`), or raise `addTimeoutMs`.',
});

export const HG_ERR_QUEUE_ADD_FAILED = defineError(
  'HG_ERR_QUEUE_ADD_FAILED',
  'side-effect job %s for plugin %s not added: Redis at %s answered %s',
  {
    meaning:
      'Redis answered the add with an error instead of storing the job, most often `OOM command not allowed` (memory full under `maxmemory-policy noeviction`), `READONLY` (a replica after a failover) or `NOAUTH`.',
    remedy:
      'By the answer: OOM, give Redis more memory or let the controller drain the queues (look for a stopped controller and a large failed set); READONLY, the URL names a replica: use a `redis+sentinel://` URL, which follows the master across failovers; NOAUTH or WRONGPASS, fix the credentials in the Redis URL.',
  },
);

export const HG_ERR_QUEUE_OPTION_INVALID = defineError('HG_ERR_QUEUE_OPTION_INVALID', 'invalid %s %s: %s', {
  meaning:
    'An option given to `@hookgate/queue` cannot be used: a plugin name or queue prefix that cannot be part of a BullMQ queue name or Redis key (empty, too long, or a character outside the allowed set), a Redis URL of none of the forms (`redis://`, `redis+sentinel://`, `redis+cluster://`, `rediss...`), a prefix without a `{hash tag}` with a Redis Cluster URL, or a number out of range (a timeout, a retention, a backoff bound). The message names the option and what is allowed, with passwords shown as `***`.',
  remedy:
    'Plugin names are lowercase RFC 1123 subdomains (letters, digits, `-` and `.`, at most 253 characters), as the gateway configuration requires; a prefix may hold letters, digits, `-`, `_`, `.` and one `{hash tag}`, which Redis Cluster requires; Redis URLs are described in docs/operations.md, "Redis". Fix the value where it is configured.',
});

/** Every entry, keyed by its code. */
export const catalogue = {
  HG_ERR_GATEWAY_BAD_REQUEST,
  HG_ERR_GATEWAY_METHOD,
  HG_ERR_GATEWAY_NOT_FOUND,
  HG_ERR_GATEWAY_LISTEN,
  HG_ERR_GATEWAY_CLIENT,
  HG_ERR_GATEWAY_INTERNAL,
  HG_ERR_GATEWAY_UNAUTHENTICATED,
  HG_ERR_GATEWAY_SIDE_EFFECT_NOT_RECORDED,
  HG_ERR_PLUGIN_CONFIG_INVALID,
  HG_ERR_PLUGIN_DEFINITION_INVALID,
  HG_ERR_LEDGER_REDIS_UNREACHABLE,
  HG_ERR_KUBERNETES_API,
  HG_ERR_KUBERNETES_UNEXPECTED_ANSWER,
  HG_ERR_SPOOL_FULL,
  HG_ERR_SPOOL_LOCKED,
  HG_ERR_SPOOL_UNREADABLE,
  HG_ERR_SPOOL_RECORD_TOO_LARGE,
  HG_ERR_SPOOL_WRITE_FAILED,
  HG_ERR_QUEUE_UNAVAILABLE,
  HG_ERR_QUEUE_ADD_FAILED,
  HG_ERR_QUEUE_OPTION_INVALID,
} as const;

export type CataloguedCode = keyof typeof catalogue;
