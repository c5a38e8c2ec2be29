/**
 * immutable-fields configuration: YAML → validated ImmutablePolicy, every problem named by its field path.
 * Two shapes, usable together:
 *
 *   kinds:                                   # group/Kind (core group: Kind alone) → field paths
 *     ec2.aws.crossplane.io/VPC: [spec.forProvider.region]
 *     ConfigMap: ['data[app.properties]']
 *   crds:                                    # the Crossplane webhook design's format, by resource
 *     - rdsinstances.database.aws.crossplane.io/v1beta1:
 *         immutableFieldPaths: [spec.forProvider.vpcId]
 */
import { joinFieldPath, loadPluginConfig, parsePluginConfig, type FieldReader } from '@hookgate/plugin-sdk';
import type { ImmutableEntry, ImmutablePolicy, TargetMatcher } from './decide.js';
import { parseFieldPath, type FieldPath } from './field-path.js';

const PLUGIN = 'immutable-fields';
const KIND_KEY = /^(?:([a-z0-9.-]+)\/)?([A-Z][A-Za-z0-9]*)$/;
const CRD_KEY = /^([a-z0-9-]+)(?:\.([a-z0-9.-]+))?(?:\/([a-z0-9]+))?$/;

export async function loadImmutableFieldsConfig(path: string): Promise<ImmutablePolicy> {
  return loadPluginConfig(PLUGIN, path, readImmutablePolicy);
}

export function parseImmutableFieldsConfig(text: string, source: string): ImmutablePolicy {
  return parsePluginConfig(PLUGIN, text, source, readImmutablePolicy);
}

function readImmutablePolicy(document: unknown, r: FieldReader): ImmutablePolicy {
  const root = r.object(document, '', ['kinds', 'crds']) ?? {};
  const entries: ImmutableEntry[] = [];

  for (const [key, rawPaths] of Object.entries(r.object(root['kinds'], 'kinds') ?? {})) {
    const at = joinFieldPath('kinds', key);
    const match = KIND_KEY.exec(key);
    const target: TargetMatcher | undefined = match
      ? { by: 'kind', group: match[1] ?? '', kind: match[2]! }
      : undefined;
    if (!target)
      r.invalid(
        at,
        key,
        'must be group/Kind, or Kind alone for the core group (e.g. ec2.aws.crossplane.io/VPC, ConfigMap)',
      );
    const paths = readPaths(r, rawPaths, at);
    if (target && paths) entries.push({ target, paths });
  }

  const crds = root['crds'];
  if (crds !== undefined && crds !== null && !Array.isArray(crds))
    r.invalid('crds', crds, 'must be a list of { <plural>.<group>/<version>: { immutableFieldPaths: [...] } }');
  (Array.isArray(crds) ? crds : []).forEach((item, i) => {
    for (const [key, value] of Object.entries(r.object(item, `crds[${i}]`) ?? {})) {
      const at = joinFieldPath(`crds[${i}]`, key);
      const match = CRD_KEY.exec(key);
      const target: TargetMatcher | undefined = match
        ? {
            by: 'resource',
            resource: match[1]!,
            group: match[2] ?? '',
            ...(match[3] !== undefined ? { version: match[3] } : {}),
          }
        : undefined;
      if (!target) r.invalid(at, key, 'must be <plural>.<group>/<version>, e.g. vpcs.ec2.aws.crossplane.io/v1beta1');
      const spec = r.object(value, at, ['immutableFieldPaths']);
      const paths = readPaths(r, spec?.['immutableFieldPaths'], `${at}.immutableFieldPaths`);
      if (target && paths) entries.push({ target, paths });
    }
  });

  if (entries.length === 0 && r.problems.length === 0) r.required('kinds');
  return { entries };
}

function readPaths(r: FieldReader, raw: unknown, at: string): FieldPath[] | undefined {
  const texts = r.stringArray(raw, at);
  if (texts === undefined || texts.length === 0)
    return r.invalid(at, raw ?? null, 'must be a non-empty list of field paths such as spec.forProvider.region');
  const paths: FieldPath[] = [];
  texts.forEach((text, i) => {
    const parsed = parseFieldPath(text);
    if (parsed.ok) paths.push(parsed.path);
    else r.invalid(`${at}[${i}]`, text, `is not a field path: ${parsed.error}`);
  });
  return paths;
}
