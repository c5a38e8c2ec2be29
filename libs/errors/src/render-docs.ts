/**
 * docs/errors.md, rendered from the catalogue. scripts/write-docs.ts writes it; catalogue.test.ts
 * fails when the file differs, so the docs cannot drift from the codes (fastify's errors test).
 */
import { AREAS, catalogue } from './catalogue.js';
import type { ErrorEntry } from './define-error.js';

const HEADER = `# Error codes

<!-- Generated from libs/errors/src/catalogue.ts by \`npm run docs -w @hookgate/errors\`; do not edit by hand. -->

Every error Hookgate raises on purpose carries a code \`HG_ERR_<AREA>_<WHAT>\`: in the \`code\` of a
thrown error (with \`message\`, \`remedy\` and, when it wraps another error, \`cause\`), and as
\`details.causes[0].reason\` of the \`metav1.Status\` bodies the gateway answers with. Grep logs and
Status bodies for the code; test for it with \`isHookgateError(error, code)\` from
\`@hookgate/errors\`, never with \`instanceof\` across packages.

Not listed here, because they are not thrown Hookgate errors:

- Admission decisions and hook failures are values: a denial is the hook's own Status, and a hook
  that cannot be called is decided by its \`failurePolicy\` with the apiserver's wording.
- Configuration problems are field errors in the apiserver's wording
  (\`spoolDir: Forbidden: may only be set with redis: ...\`), all reported together; see libs/config/README.md.
- \`HookCallError\` and \`RegistrationRefusedError\` (plugin SDK) carry a gRPC status as \`code\`,
  because that status is what crosses the wire: the gateway decides a hook's calling failure by it,
  and a plugin retries a registration unless the status says the request itself is wrong.
`;

export function renderErrorDocs(): string {
  const sections = Object.entries(AREAS).map(([area, { title, about }]) => {
    const entries = Object.values(catalogue).filter((e) => areaOf(e.code) === area);
    return [`## ${title}`, '', about, '', ...entries.flatMap(renderEntry)].join('\n');
  });
  return `${[HEADER, ...sections].join('\n')}`;
}

/** The `<AREA>` of `HG_ERR_<AREA>_<WHAT>`. */
export function areaOf(code: string): string {
  return code.slice('HG_ERR_'.length).split('_')[0] ?? '';
}

function renderEntry(entry: ErrorEntry & { readonly code: string }): string[] {
  return [`### ${entry.code}`, '', `**Meaning:** ${entry.meaning}`, '', `**What to do:** ${entry.remedy}`, ''];
}
