/**
 * @hookgate/admission: the apiserver's admission-webhook dispatcher semantics as pure functions.
 * No I/O, no frameworks, no timers: transports are injected as a HookInvoker, time as a clock.
 *
 * Usage sketch:
 *   const cfg = parseWebhookConfiguration(yamlObject);            // defaults + validation, all errors at once
 *   const set = compileHooks([cfg.value]);                         // selectors, CEL, index: once per config
 *   const review = decodeReview(JSON.parse(body));                 // v1 or v1beta1
 *   const outcome = await runMutating(set, review.value.request, env); // env: invoker, clock, namespaces
 *   reply(encodeReview(review.value.version, review.value.request.uid, outcome));
 */
export * from './result.js';
export { isPlainObject, ownMember, setOwnMember } from './own-members.js';
export type * from './types/index.js';
export * from './errors/index.js';
export * from './validation/index.js';
export * from './patch/index.js';
export * from './review/index.js';
export * from './match/index.js';
export * from './config/index.js';
export * from './chain/index.js';
export * from './registration/index.js';
export {
  encodeAnnotationsForApiserver,
  encodeAnnotationKey,
  decodeApiserverAnnotationKey,
  isValidAnnotationKey,
  AuditAnnotations,
  mutationAnnotationKey,
  mutationAnnotationValue,
  patchAnnotationKey,
  patchAnnotationValue,
  failedOpenMutationKey,
  failedOpenValidatingKey,
  type EncodeAnnotationsOptions,
} from './annotations.js';
export { WarningRecorder, collectWarnings, isRecordableWarning } from './warnings.js';
