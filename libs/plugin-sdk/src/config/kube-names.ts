/**
 * Kubernetes name checks as booleans, for configuration readers. The rules are apimachinery's, from
 * @hookgate/admission (whose functions of the same purpose return the problem texts instead).
 */
import { isQualifiedName, isValidLabelValue } from '@hookgate/admission';

/** A qualified name (label, annotation or resource key): `[prefix/]name`. */
export function validQualifiedName(key: string): boolean {
  return isQualifiedName(key).length === 0;
}

/** A label value: empty, or up to 63 alphanumerics, '-', '_' and '.', starting and ending alphanumeric. */
export function validLabelValue(value: string): boolean {
  return isValidLabelValue(value).length === 0;
}
