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
import { loadPluginConfig, parsePluginConfig, type FieldReader } from '@hookgate/plugin-sdk';
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

function readImmutablePolicy(r: FieldReader): ImmutablePolicy {
  const entries: ImmutableEntry[] = [];

  const kinds = r.map('kinds');
  for (const key of kinds.keys()) {
    const match = KIND_KEY.exec(key);
    const target: TargetMatcher | undefined = match
      ? { by: 'kind', group: match[1] ?? '', kind: match[2]! }
      : undefined;
    if (!target)
      kinds.invalid(
        key,
        key,
        'must be group/Kind, or Kind alone for the core group (e.g. ec2.aws.crossplane.io/VPC, ConfigMap)',
      );
    const paths = readPaths(kinds, key);
    if (target && paths) entries.push({ target, paths });
  }

  const crds = r.raw('crds');
  if (crds !== undefined && !Array.isArray(crds))
    r.invalid('crds', crds, 'must be a list of { <plural>.<group>/<version>: { immutableFieldPaths: [...] } }');
  else
    r.mapItems('crds', (item) => {
      for (const key of item.keys()) {
        const match = CRD_KEY.exec(key);
        const target: TargetMatcher | undefined = match
          ? {
              by: 'resource',
              resource: match[1]!,
              group: match[2] ?? '',
              ...(match[3] !== undefined ? { version: match[3] } : {}),
            }
          : undefined;
        if (!target)
          item.invalid(key, key, 'must be <plural>.<group>/<version>, e.g. vpcs.ec2.aws.crossplane.io/v1beta1');
        const spec = item.object(key);
        const paths = readPaths(spec, 'immutableFieldPaths');
        spec.finish();
        if (target && paths) entries.push({ target, paths });
      }
    });

  r.finish(); // before the check below: an unknown key (a typo of kinds) explains the empty policy
  if (entries.length === 0 && r.errors().length === 0) r.required('kinds');
  return { entries };
}

/** The field `name` of `section`: a non-empty list of field paths. */
function readPaths(section: FieldReader, name: string): FieldPath[] | undefined {
  const texts = section.stringList(name);
  if (texts === undefined || texts.length === 0)
    return section.invalid(
      name,
      section.raw(name) ?? null,
      'must be a non-empty list of field paths such as spec.forProvider.region',
    );
  const paths: FieldPath[] = [];
  texts.forEach((text, i) => {
    const parsed = parseFieldPath(text);
    if (parsed.ok) paths.push(parsed.path);
    else section.invalid(section.at(name).index(i), text, `is not a field path: ${parsed.error}`);
  });
  return paths;
}
