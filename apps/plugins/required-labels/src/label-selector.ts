/**
 * namespaceSelector matching through @hookgate/admission's compileSelector, so that the plugin
 * selects namespaces exactly as the gateway and the apiserver do: the AND of every matchLabels
 * pair and matchExpression, `{}` matches everything, NotIn and DoesNotExist match an absent key.
 */
import { compileSelector, type CompiledSelector, type LabelSelector } from '@hookgate/admission';

// A policy is loaded once and matched on every admission: compile each selector once.
const compiled = new WeakMap<LabelSelector, CompiledSelector>();

export function matchesSelector(selector: LabelSelector, labels: Readonly<Record<string, string>>): boolean {
  let matcher = compiled.get(selector);
  if (matcher === undefined) {
    matcher = compileSelector(selector);
    compiled.set(selector, matcher);
  }
  return matcher.matches(labels);
}
