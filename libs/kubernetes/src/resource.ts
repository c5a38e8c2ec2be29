/**
 * A Kubernetes resource by group, version and resource (the plural, as in RBAC rules and
 * admission requests), and the REST paths the apiserver serves it at:
 *   core group:  /api/v1[/namespaces/<ns>]/<resource>[/<name>]
 *   other groups: /apis/<group>/<version>[/namespaces/<ns>]/<resource>[/<name>]
 */
export interface ResourceRef {
  /** '' for the core group. */
  readonly group: string;
  readonly version: string;
  /** Plural and lowercase: 'namespaces', 'configmaps', 'deployments'. */
  readonly resource: string;
}

export interface ObjectScope {
  /** Namespaced resources: the namespace; absent for cluster-scoped ones, or a list across namespaces. */
  readonly namespace?: string;
  readonly name?: string;
}

export function resourcePath(ref: ResourceRef, scope: ObjectScope = {}): string {
  const segment = (value: string, what: string): string => {
    if (value === '' || value === '.' || value === '..' || value.includes('/'))
      throw new Error(`${what} ${JSON.stringify(value)} cannot be part of an apiserver path`);
    return encodeURIComponent(value);
  };
  const root =
    ref.group === ''
      ? `/api/${segment(ref.version, 'version')}`
      : `/apis/${segment(ref.group, 'group')}/${segment(ref.version, 'version')}`;
  const namespace = scope.namespace === undefined ? '' : `/namespaces/${segment(scope.namespace, 'namespace')}`;
  const name = scope.name === undefined ? '' : `/${segment(scope.name, 'name')}`;
  return `${root}${namespace}/${segment(ref.resource, 'resource')}${name}`;
}

/** 'deployments.apps', 'namespaces': how the apiserver names a resource in its messages. */
export function qualifiedResource(ref: ResourceRef): string {
  return ref.group === '' ? ref.resource : `${ref.resource}.${ref.group}`;
}
