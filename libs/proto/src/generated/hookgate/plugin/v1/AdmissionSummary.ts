// Original file: proto/hookgate/plugin/v1/plugin.proto


/**
 * What the admission was about and how it ended. No object contents.
 */
export interface AdmissionSummary {
  'uid'?: (string);
  'operation'?: (string);
  'group'?: (string);
  'version'?: (string);
  'resource'?: (string);
  'subResource'?: (string);
  'namespace'?: (string);
  'name'?: (string);
  /**
   * The gateway's final decision for the request.
   */
  'allowed'?: (boolean);
  'dryRun'?: (boolean);
}

/**
 * What the admission was about and how it ended. No object contents.
 */
export interface AdmissionSummary__Output {
  'uid': (string);
  'operation': (string);
  'group': (string);
  'version': (string);
  'resource': (string);
  'subResource': (string);
  'namespace': (string);
  'name': (string);
  /**
   * The gateway's final decision for the request.
   */
  'allowed': (boolean);
  'dryRun': (boolean);
}
