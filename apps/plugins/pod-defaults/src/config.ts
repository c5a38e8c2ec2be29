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
  joinFieldPath,
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

function readPodDefaults(document: unknown, r: FieldReader): PodDefaults {
  const root =
    r.object(document, '', ['imagePullPolicy', 'resources', 'containers', 'namespaceLabels', 'fromNamespace']) ?? {};

  const imagePullPolicy = r.string(root['imagePullPolicy'], 'imagePullPolicy');
  if (imagePullPolicy !== undefined && !PULL_POLICIES.includes(imagePullPolicy as PullPolicy)) {
    r.unsupported('imagePullPolicy', imagePullPolicy, PULL_POLICIES);
  }

  const resources = r.object(root['resources'], 'resources', ['requests']);
  const requests = r.stringMap(resources?.['requests'], 'resources.requests') ?? {};
  for (const [name, quantity] of Object.entries(requests)) {
    if (!validQualifiedName(name))
      r.invalid(
        joinFieldPath('resources.requests', name),
        name,
        'must be a resource name such as cpu, memory or example.com/gpu',
      );
    if (!QUANTITY.test(quantity))
      r.invalid(joinFieldPath('resources.requests', name), quantity, 'must be a quantity such as 100m, 0.5 or 128Mi');
  }

  const containerLists = r.stringArray(root['containers'], 'containers') ?? [...CONTAINER_LISTS];
  containerLists.forEach((list, i) => {
    if (!CONTAINER_LISTS.includes(list as ContainerList)) r.unsupported(`containers[${i}]`, list, CONTAINER_LISTS);
  });

  const namespaceLabels: Record<string, Record<string, string>> = {};
  for (const [namespace, labels] of Object.entries(r.object(root['namespaceLabels'], 'namespaceLabels') ?? {})) {
    const path = joinFieldPath('namespaceLabels', namespace);
    const map = r.stringMap(labels, path);
    if (map === undefined) continue;
    for (const [key, value] of Object.entries(map)) {
      if (!validQualifiedName(key)) r.invalid(joinFieldPath(path, key), key, 'must be a label key');
      if (!validLabelValue(value))
        r.invalid(
          joinFieldPath(path, key),
          value,
          'must be a label value (63 characters at most: letters, digits, "-", "_", ".")',
        );
    }
    namespaceLabels[namespace] = map;
  }

  const fromNamespace = r.object(root['fromNamespace'], 'fromNamespace', ['labels', 'annotations']);
  const copyLabels = r.stringArray(fromNamespace?.['labels'], 'fromNamespace.labels') ?? [];
  copyLabels.forEach((key, i) => {
    if (!validQualifiedName(key)) r.invalid(`fromNamespace.labels[${i}]`, key, 'must be a label key');
  });
  const copyAnnotations = r.stringMap(fromNamespace?.['annotations'], 'fromNamespace.annotations') ?? {};
  for (const [annotation, labelKey] of Object.entries(copyAnnotations)) {
    if (!validQualifiedName(annotation))
      r.invalid(joinFieldPath('fromNamespace.annotations', annotation), annotation, 'must be an annotation key');
    if (!validQualifiedName(labelKey))
      r.invalid(joinFieldPath('fromNamespace.annotations', annotation), labelKey, 'must be a namespace label key');
  }
  if ((copyLabels.length > 0 || Object.keys(copyAnnotations).length > 0) && Object.keys(namespaceLabels).length === 0) {
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
