/** RFC 6902 operations, as hooks send them. */
export interface PatchOperation {
  op: 'add' | 'remove' | 'replace' | 'move' | 'copy' | 'test' | string;
  path: string;
  value?: unknown;
  from?: string;
}
