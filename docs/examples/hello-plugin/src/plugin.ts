import { definePlugin, type KubeObject } from '@hookgate/plugin-sdk';

export const NEEDS_TEAM = 'every object needs a "team" label, e.g. team: payments';

export const hasTeamLabel = (object: KubeObject | undefined): boolean => Boolean(object?.metadata?.labels?.['team']);

/** The object with the annotation example.com/owner, unless it has one already. */
export const withDefaultOwner = (object: KubeObject): KubeObject => ({
  ...object,
  metadata: { ...object.metadata, annotations: { 'example.com/owner': 'platform', ...object.metadata?.annotations } },
});

export const plugin = definePlugin({
  name: 'hello',
  hooks: {
    'default-owner.hello.example.com': {
      phase: 'mutating',
      // Return the changed object (or nothing: no change); the SDK computes the JSON Patch.
      mutate: (req) => req.object && withDefaultOwner(req.object),
    },
    'require-team.hello.example.com': {
      phase: 'validating',
      validate: (req) => (hasTeamLabel(req.object) ? { allowed: true } : { allowed: false, message: NEEDS_TEAM }),
    },
  },
});
