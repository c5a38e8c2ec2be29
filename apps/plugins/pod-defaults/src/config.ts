/**
 * pod-defaults configuration: YAML → validated PodDefaults, every problem named by its field path.
 *
 *   imagePullPolicy: IfNotPresent
 *   resources: { requests: { cpu: 50m, memory: 64Mi } }
 *   containers: [containers, initContainers]
 *   namespaceLabels: { payments: { team: payments, cost-center: "4711" } }
 *   fromNamespace: { labels: [team], annotations: { example.com/cost-center: cost-center } }
 */
import {
  loadPluginConfig,
  parsePluginConfig,
  validLabelValue,
  validQualifiedName,
  type FieldReader,
} from '@hookgate/plugin-sdk';
import type { ContainerList, PodDefaults, PullPolicy } from './decide.js';

const PLUGIN = 'pod-defaults';
const PULL_POLICIES: readonly PullPolicy[] = ['Always', 'IfNotPresent', 'Never'];
const CONTAINER_LISTS: readonly ContainerList[] = ['containers', 'initContainers'];
// Kubernetes resource.Quantity syntax: a decimal number with an optional binary, decimal or exponent suffix.
const QUANTITY = /^[+]?(\d+(\.\d*)?|\.\d+)([KMGTPE]i|[numkMGTPE]|[eE][+-]?\d+)?$/;

export async function loadPodDefaultsConfig(path: string): Promise<PodDefaults> {
  return loadPluginConfig(PLUGIN, path, readPodDefaults);
}

export function parsePodDefaultsConfig(text: string, source: string): PodDefaults {
  return parsePluginConfig(PLUGIN, text, source, readPodDefaults);
}

function readPodDefaults(r: FieldReader): PodDefaults {
  // allowEmpty: "" is answered with the supported values below, not a bare "must be non-empty".
  const imagePullPolicy = r.string('imagePullPolicy', undefined, { allowEmpty: true });
  if (imagePullPolicy !== undefined && !PULL_POLICIES.includes(imagePullPolicy as PullPolicy)) {
    r.notSupported('imagePullPolicy', imagePullPolicy, PULL_POLICIES);
  }

  const resources = r.object('resources');
  const requests = resources.stringMap('requests') ?? {};
  for (const [name, quantity] of Object.entries(requests)) {
    const at = resources.at('requests').key(name);
    if (!validQualifiedName(name))
      r.invalid(at, name, 'must be a resource name such as cpu, memory or example.com/gpu');
    if (!QUANTITY.test(quantity)) r.invalid(at, quantity, 'must be a quantity such as 100m, 0.5 or 128Mi');
  }
  resources.finish();

  const containerLists = r.stringList('containers') ?? [...CONTAINER_LISTS];
  containerLists.forEach((list, i) => {
    if (!CONTAINER_LISTS.includes(list as ContainerList))
      r.notSupported(r.at('containers').index(i), list, CONTAINER_LISTS);
  });

  const byNamespace = r.map('namespaceLabels');
  const namespaceEntries: [string, Record<string, string>][] = [];
  for (const namespace of byNamespace.keys()) {
    const labels = byNamespace.stringMap(namespace);
    if (labels === undefined) continue;
    for (const [key, value] of Object.entries(labels)) {
      const at = byNamespace.at(namespace).key(key);
      if (!validQualifiedName(key)) r.invalid(at, key, 'must be a label key');
      if (!validLabelValue(value))
        r.invalid(at, value, 'must be a label value (63 characters at most: letters, digits, "-", "_", ".")');
    }
    namespaceEntries.push([namespace, labels]);
  }
  // fromEntries: a namespace key is data, even one named __proto__.
  const namespaceLabels = Object.fromEntries(namespaceEntries);

  const fromNamespace = r.object('fromNamespace');
  const copyLabels = fromNamespace.stringList('labels') ?? [];
  copyLabels.forEach((key, i) => {
    if (!validQualifiedName(key)) r.invalid(fromNamespace.at('labels').index(i), key, 'must be a label key');
  });
  const copyAnnotations = fromNamespace.stringMap('annotations') ?? {};
  for (const [annotation, labelKey] of Object.entries(copyAnnotations)) {
    const at = fromNamespace.at('annotations').key(annotation);
    if (!validQualifiedName(annotation)) r.invalid(at, annotation, 'must be an annotation key');
    if (!validQualifiedName(labelKey)) r.invalid(at, labelKey, 'must be a namespace label key');
  }
  fromNamespace.finish();
  if ((copyLabels.length > 0 || Object.keys(copyAnnotations).length > 0) && namespaceEntries.length === 0) {
    r.invalid(
      'namespaceLabels',
      {},
      'fromNamespace needs the labels of at least one namespace here (the plugin cannot read Namespace objects)',
    );
  }

  return {
    ...(imagePullPolicy !== undefined ? { imagePullPolicy: imagePullPolicy as PullPolicy } : {}),
    requests,
    containerLists: containerLists as ContainerList[],
    namespaceLabels,
    copyLabels,
    copyAnnotations,
  };
}
