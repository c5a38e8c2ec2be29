import { LineCounter, parseDocument } from 'yaml';
import { PluginConfigError } from './plugin-config-error.js';

/** Parses one YAML document; syntax errors become a PluginConfigError naming the line. */
export function parseYaml(text: string, plugin: string, source: string): unknown {
  // prettyErrors would fill linePos but also put a source excerpt into the message; count lines ourselves.
  const lines = new LineCounter();
  const doc = parseDocument(text, { prettyErrors: false, lineCounter: lines });
  if (doc.errors.length > 0) {
    throw new PluginConfigError(
      plugin,
      source,
      doc.errors.map(
        (e) => `YAML syntax: ${e.message.split('\n')[0] ?? e.code} (line ${lines.linePos(e.pos[0]).line})`,
      ),
    );
  }
  return doc.toJS() as unknown;
}
