// Original file: proto/hookgate/plugin/v1/plugin.proto


/**
 * The object a held effect belongs to.
 */
export interface ObjectReference {
  'group'?: (string);
  'version'?: (string);
  /**
   * The plural resource, as in the request (`ingresses`).
   */
  'resource'?: (string);
  /**
   * Empty for cluster-scoped resources.
   */
  'namespace'?: (string);
  'name'?: (string);
  /**
   * The object's uid when the plugin knows it: another uid under the name means replaced. Empty:
   * only absence counts.
   */
  'uid'?: (string);
}

/**
 * The object a held effect belongs to.
 */
export interface ObjectReference__Output {
  'group': (string);
  'version': (string);
  /**
   * The plural resource, as in the request (`ingresses`).
   */
  'resource': (string);
  /**
   * Empty for cluster-scoped resources.
   */
  'namespace': (string);
  'name': (string);
  /**
   * The object's uid when the plugin knows it: another uid under the name means replaced. Empty:
   * only absence counts.
   */
  'uid': (string);
}
