/**
 * Import boundaries, checked by `npm run lint:deps` (dependency-cruiser). Type-only imports count too.
 * RANKING is every folder of src/, top to bottom; a folder imports only the folders ranked below it, never one above
 * nor one of its own rank, and a folder in no rank fails. The rules are generated from it, one per folder; a few
 * more below say what a rank cannot. docs/architecture.md draws the layers; test/unit/dependency-rules.test.ts shows
 * each rule failing, on a wrong import for every pair of folders that runs against the ranking.
 */
const RANKING = [
  // The program: argv to exit code, commander's tree or the plain-line reader, help, the Ctx it makes. Loads the verbs.
  ['shell'],
  // The verbs, one per file.
  ['commands'],
  // Engines that drive other engines: the MCP server (verbs in-process, the account file), results sync.
  ['mcp', 'sync'],
  // Engines: the account file, shell completion, sq doctor's checks, results export, the webhook listener.
  ['account', 'completion', 'doctor', 'export', 'webhook'],
  // Engines the ones above use: the money guard and spend facts, the update notice.
  ['billing', 'update'],
  // The contract every verb and engine imports: Ctx, VerbSpec and defineVerb, the Ctx-taking helpers.
  ['cli'],
  // Profiles and settings.
  ['config'],
  // Terminal and file streams (CSV, checkpoints, progress, shell quoting); flag checks.
  ['io', 'validate'],
  // The API client and its records; rendering.
  ['api', 'output'],
  // The emulator is the service's independent reading of the docs: none of the client's code (api, io, output,
  // validate) decides its answers, or a misreading there would pass the tests of both sides. startup/ is what
  // bin/sq.js loads before the bundle (argv pre-scan, code caches, V8 flags, trace marks): leaves, kept small.
  ['emulator', 'startup'],
  // Leaf helpers; the documented tables the client and the emulator share (data only).
  ['lib', 'tables'],
  // Below every folder: the files left in src/ (errors, version, import-package), which import none of them.
];

const RANKED = RANKING.flat();
const UNRANKED = `^src/(?!(${RANKED.join('|')})/)[^/]+/`;

/** One rule per folder: nothing of its own rank or above (the top rank's only folder needs none). */
const rankRules = RANKING.flatMap((rank, i) =>
  rank.flatMap((folder) => {
    const notBelow = RANKING.slice(0, i + 1).flat().filter((f) => f !== folder);
    if (notBelow.length === 0) return [];
    const below = RANKING.slice(i + 1).flat();
    return [
      {
        name: `rank-${folder}`,
        severity: 'error',
        comment: `src/${folder}/ imports only what ranks below it: ${below.join(', ') || 'none'} and the files of src/.`,
        from: { path: `^src/${folder}/` },
        to: { path: `^src/(${notBelow.join('|')})/` },
      },
    ];
  }),
);

module.exports = {
  forbidden: [
    ...rankRules,
    {
      name: 'unranked-folder',
      severity: 'error',
      comment: 'Every folder of src/ has its rank in RANKING: a new one is placed there before it is used.',
      from: { path: UNRANKED },
      to: {},
    },
    {
      name: 'unranked-folder-imported',
      severity: 'error',
      comment: 'Every folder of src/ has its rank in RANKING: nothing imports a folder that has none.',
      from: {},
      to: { path: UNRANKED },
    },
    {
      name: 'unranked-folder-orphan',
      severity: 'error',
      comment: 'Every folder of src/ has its rank in RANKING, even one whose files import nothing.',
      from: { orphan: true, path: UNRANKED },
      to: {},
    },
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A module never reaches itself back through its imports (type-only imports included).',
      from: {},
      to: { circular: true },
    },
    {
      name: 'root-files-are-leaves',
      severity: 'error',
      comment: 'The few files left in src/ (errors, version, import-package) sit below every folder.',
      from: { path: '^src/[^/]+\\.ts$' },
      to: { path: '^src/[^/]+/' },
    },
    {
      name: 'tables-are-data',
      severity: 'error',
      comment: 'src/tables/ holds the documented tables the client and the emulator share: data only, importing nothing.',
      from: { path: '^src/tables/' },
      to: { path: '^src/', pathNot: '^src/tables/' },
    },
    {
      name: 'commands-not-emulator',
      severity: 'error',
      comment: 'Commands talk to the API through src/api; the emulator is started only by `sq emulator` (src/commands/emulator/).',
      from: { path: '^src/commands/', pathNot: '^src/commands/emulator/' },
      to: { path: '^src/emulator/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
// For test/unit/dependency-rules.test.ts, which writes a wrong import for every pair the ranking forbids.
Object.defineProperty(module.exports, 'RANKING', { value: RANKING });
