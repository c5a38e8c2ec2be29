/** Reported in Describe, so that operators can tell which SDK a plugin runs. */
export const SDK_IMPLEMENTATION = '@hookgate/plugin-sdk 0.1.0';
