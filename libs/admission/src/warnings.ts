/**
 * Warnings (k8s-semantics.md §18): every verified answer's warnings, in call order (mutating) or
 * completion order (validating). Like the apiserver's recorder, empty warnings, exact duplicates
 * and texts that cannot travel in a `Warning:` header (control characters, invalid UTF-16) are
 * dropped. The apiserver applies its own size limits to what Hookgate returns.
 */

// unicode.IsControl: C0, DEL and C1.
function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c <= 0x1f || (c >= 0x7f && c <= 0x9f)) return true;
  }
  return false;
}
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function isRecordableWarning(text: string): boolean {
  return text.length > 0 && !hasControlCharacter(text) && !LONE_SURROGATE.test(text);
}

export class WarningRecorder {
  private readonly seen = new Set<string>();
  private readonly list: string[] = [];

  add(warnings: readonly unknown[] | undefined): void {
    if (!Array.isArray(warnings)) return;
    for (const w of warnings) {
      if (typeof w !== 'string' || !isRecordableWarning(w) || this.seen.has(w)) continue;
      this.seen.add(w);
      this.list.push(w);
    }
  }

  toArray(): string[] {
    return [...this.list];
  }
}

/** Dedupe and filter a list of warnings, keeping the first occurrence's position. */
export function collectWarnings(...lists: ReadonlyArray<readonly unknown[] | undefined>): string[] {
  const recorder = new WarningRecorder();
  for (const list of lists) recorder.add(list);
  return recorder.toArray();
}
