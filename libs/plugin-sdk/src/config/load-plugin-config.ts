/**
 * A plugin configuration file, end to end: read the file, parse the YAML, let the plugin read the
 * document field by field, and throw every problem at once as a PluginConfigError naming the file.
 */
import { readFile } from 'node:fs/promises';
import { FieldReader } from './field-reader.js';
import { parseYaml } from './parse-yaml.js';
import { PluginConfigError } from './plugin-config-error.js';

/** Reads the parsed document into the plugin's settings, reporting problems on `fields`. */
export type ReadPluginConfig<T> = (document: unknown, fields: FieldReader) => T;

/** `text` came from `source` (a file name, for messages). */
export function parsePluginConfig<T>(plugin: string, text: string, source: string, read: ReadPluginConfig<T>): T {
  const fields = new FieldReader(plugin, source);
  const settings = read(parseYaml(text, plugin, source), fields);
  if (fields.problems.length > 0) fields.fail();
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
