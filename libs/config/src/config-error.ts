/**
 * One configuration problem: where (file, document, line, object, field), which rule, and the
 * apiserver-style text. Loading reports all of them at once, never just the first.
 */
import { formatFieldError } from '@hookgate/admission';
import type { FieldError, FieldErrorType } from '@hookgate/admission';

export type ConfigRule =
  /** Includes FieldValueUnknown: a field GatewayConfiguration does not have (a typo must not pass silently). */
  | FieldErrorType
  | 'YAMLSyntax'
  | 'FileUnreadable'
  /** A document of an apiVersion/kind Hookgate does not read. */
  | 'DocumentNotSupported'
  | 'DocumentMissing'
  | 'DocumentDuplicate';

export interface ConfigError {
  /** The file the problem is in (the configuration PATH itself for "no GatewayConfiguration"). */
  readonly file: string;
  /** 1-based position of the YAML document in the file; 0 when the problem is not in one document. */
  readonly document: number;
  /** 1-based line of the field, or of the document, when known. */
  readonly line?: number;
  /** `GatewayConfiguration` or `<Kind> "<name>"`, when the document says what it is. */
  readonly object?: string;
  /** Field path inside the document, e.g. `webhooks[0].rules[1].operations`; '' for the whole document. */
  readonly field: string;
  readonly rule: ConfigRule;
  /** The problem as the apiserver words it: `<field>: <Type>: <value>: <detail>`. */
  readonly message: string;
}

/** A problem inside one document, before the loader adds file, document, line and object. */
export interface DocumentIssue {
  readonly field: string;
  readonly rule: ConfigRule;
  readonly message: string;
}

export function issueFromFieldError(e: FieldError): DocumentIssue {
  return { field: e.field, rule: e.type, message: formatFieldError(e) };
}

/** `config.yaml:12 (document 2, ValidatingWebhookConfiguration "x"): webhooks[0].name: Required value` */
export function formatConfigError(e: ConfigError): string {
  const where = e.line === undefined ? e.file : `${e.file}:${e.line}`;
  const context = [e.document > 0 ? `document ${e.document}` : undefined, e.object].filter((x) => x !== undefined);
  return context.length > 0 ? `${where} (${context.join(', ')}): ${e.message}` : `${where}: ${e.message}`;
}
