/**
 * A plugin configuration file, end to end: read the file, parse the YAML, let the plugin read the
 * document field by field with @hookgate/admission's FieldReader, and throw every problem at once
 * as a PluginConfigError naming the file, worded as the apiserver words field errors.
 */
import { readFile } from 'node:fs/promises';
import { FieldReader, formatFieldErrorShort } from '@hookgate/admission';
import { parseYaml } from './parse-yaml.js';
import { PluginConfigError } from './plugin-config-error.js';

/**
 * Reads the parsed document into the plugin's settings: `config` is a reader rooted at the
 * document (`config.string('name')`, `config.object('resources')`...). The root's unknown keys are
 * reported after `read` returns; nested sections report theirs with `finish()`.
 */
export type ReadPluginConfig<T> = (config: FieldReader) => T;

/** `text` came from `source` (a file name, for messages). */
export function parsePluginConfig<T>(plugin: string, text: string, source: string, read: ReadPluginConfig<T>): T {
  const config = FieldReader.of(parseYaml(text, plugin, source));
  const settings = read(config);
  config.finish();
  const errors = config.errors();
  // Shortened values: a problem line must stay readable when someone pasted a whole manifest.
  if (errors.length > 0)
    throw new PluginConfigError(
      plugin,
      source,
      // A problem with the document itself has no field path: say so, or the line starts with a bare "Invalid value".
      errors.map((e) => (e.field === '' ? `(document): ${formatFieldErrorShort(e)}` : formatFieldErrorShort(e))),
    );
  return settings;
}

export async function loadPluginConfig<T>(plugin: string, file: string, read: ReadPluginConfig<T>): Promise<T> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    // ENOENT, EACCES, EISDIR: the operator fixes the path (--config) or the permissions.
    throw new PluginConfigError(plugin, file, [`cannot read the file: ${(error as Error).message}`]);
  }
  return parsePluginConfig(plugin, text, file, read);
}
