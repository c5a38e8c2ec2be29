// Import-graph rules, checked by `npm run lint` (dependency-cruiser): no import cycle anywhere in the
// repository, type-only imports included, and the folders of libs/admission import one way only.

/**
 * libs/admission/src: what each folder (or top-level file) may import besides itself and the
 * leaves every module may use. Non-test files only: nothing imports a *.test.ts file, so a test
 * cannot close a cycle. A new folder must be placed here before anything may import it.
 */
const ADMISSION_LEAVES = ['types/', 'result.ts', 'own-members.ts'];
const ADMISSION_LAYERS = {
  'types/': [],
  'result.ts': [],
  'own-members.ts': [],
  'warnings.ts': [],
  'byte-wise-order.ts': [],
  'errors/': [],
  'go-url.ts': ['errors/'],
  'validation/': ['errors/'],
  'patch/': ['errors/'],
  'annotations.ts': ['patch/', 'validation/', 'byte-wise-order.ts'],
  'review/': ['errors/', 'patch/'],
  'match/': ['errors/', 'validation/', 'go-url.ts'],
  'config/': ['errors/', 'validation/', 'go-url.ts', 'byte-wise-order.ts', 'review/', 'match/'],
  'chain/': ['errors/', 'patch/', 'review/', 'match/', 'annotations.ts', 'warnings.ts'],
  'registration/': ['match/'],
  'testing/': ['errors/', 'validation/', 'patch/', 'annotations.ts', 'review/', 'match/', 'config/', 'chain/'],
  'index.ts': [
    'errors/',
    'validation/',
    'patch/',
    'review/',
    'match/',
    'config/',
    'chain/',
    'registration/',
    'annotations.ts',
    'warnings.ts',
  ],
};

const ADMISSION = 'libs/admission/src/';
const TEST_FILE = '\\.test\\.ts$';
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** `chain/` covers the folder; `index.ts` only that file. */
const modulePath = (entry) => `^${escape(ADMISSION + entry)}${entry.endsWith('/') ? '' : '$'}`;

/** The table itself must be acyclic, or the rules below would allow a cycle. */
function assertAcyclic(layers) {
  const state = new Map();
  const visit = (entry, trail) => {
    if (state.get(entry) === 'done') return;
    if (state.get(entry) === 'open') throw new Error(`ADMISSION_LAYERS has a cycle: ${[...trail, entry].join(' -> ')}`);
    state.set(entry, 'open');
    for (const next of layers[entry] ?? []) visit(next, [...trail, entry]);
    state.set(entry, 'done');
  };
  for (const entry of Object.keys(layers)) visit(entry, []);
}
assertAcyclic(ADMISSION_LAYERS);

const admissionLayerRules = Object.entries(ADMISSION_LAYERS).map(([entry, allowed]) => {
  const mayImport = [...new Set([entry, ...ADMISSION_LEAVES, ...allowed])];
  return {
    name: 'admission-layers',
    severity: 'error',
    comment: `libs/admission/src/${entry} may import only ${mayImport.join(', ')} (layering in .dependency-cruiser.mjs, docs/architecture.md).`,
    from: { path: modulePath(entry), pathNot: TEST_FILE },
    to: { path: `^${escape(ADMISSION)}`, pathNot: mayImport.map(modulePath) },
  };
});

export default {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import cycle: move what both sides need into a module that neither imports.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'resolvable',
      severity: 'error',
      comment: 'An import the cruiser cannot resolve would hide cycles through it.',
      from: {},
      to: { couldNotResolve: true },
    },
    ...admissionLayerRules,
    {
      name: 'admission-layers',
      severity: 'error',
      comment: 'A libs/admission/src module outside ADMISSION_LAYERS: add its folder to the table.',
      from: { path: `^${escape(ADMISSION)}`, pathNot: [TEST_FILE, ...Object.keys(ADMISSION_LAYERS).map(modulePath)] },
      to: { path: `^${escape(ADMISSION)}` },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|coverage|tmp|\\.nx|\\.git|\\.hookgate)/' },
    // Type-only imports count: a cycle of types couples modules as much as one of values.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      // 'development' first: workspace packages resolve to their TypeScript sources, as in the typecheck.
      conditionNames: ['development', 'import', 'node', 'default'],
      extensions: ['.ts', '.mts', '.js', '.mjs', '.json'],
    },
    skipAnalysisNotInRules: true,
  },
};
