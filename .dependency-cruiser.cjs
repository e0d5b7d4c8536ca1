/**
 * Import boundaries, checked by `npm run lint:deps` (dependency-cruiser). Type-only imports count too.
 * The layers, bottom to top, are described in docs/architecture.md; each rule below forbids one direction, and
 * test/unit/dependency-rules.test.ts shows each one failing on a deliberately wrong import.
 */
const LOWER = '^src/(lib|api|output|validate|io|config|emulator|tables)/';
const APPLICATION = 'cli|commands|account|results|run|sync|mcp|completion|webhook';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A module never reaches itself back through its imports (type-only imports included).',
      from: {},
      to: { circular: true },
    },
    {
      name: 'lib-is-a-leaf',
      severity: 'error',
      comment: 'src/lib/ holds leaf helpers (type guards, files, locks, times): it imports only itself and src/errors.ts.',
      from: { path: '^src/lib/' },
      to: { path: '^src/', pathNot: ['^src/lib/', '^src/errors\\.ts$'] },
    },
    {
      name: 'root-files-are-leaves',
      severity: 'error',
      comment: 'The few files left in src/ (errors, version, import-package) sit below every folder.',
      from: { path: '^src/[^/]+\\.ts$' },
      to: { path: '^src/[^/]+/' },
    },
    {
      name: 'api-not-output',
      severity: 'error',
      comment: 'The API client returns records; rendering them is output/\'s job (the masking it needs is in lib/secrets.ts).',
      from: { path: '^src/api/' },
      to: { path: '^src/output/' },
    },
    {
      name: 'api-not-io',
      severity: 'error',
      comment: 'The API client does not use the terminal/stream helpers of io/; file primitives it needs are in lib/.',
      from: { path: '^src/api/' },
      to: { path: '^src/io/' },
    },
    {
      name: 'api-not-validate',
      severity: 'error',
      comment: 'Flag checks (validate/) sit above the API client and may use it, never the other way round.',
      from: { path: '^src/api/' },
      to: { path: '^src/validate/' },
    },
    {
      name: 'api-not-application',
      severity: 'error',
      comment: 'The API client knows no command, shell, plan, export, configuration or emulator.',
      from: { path: '^src/api/' },
      to: { path: `^src/(${APPLICATION}|config|emulator)/` },
    },
    {
      name: 'output-not-above',
      severity: 'error',
      comment: 'Rendering takes records and settings; it never reaches up to flags, files, config or commands.',
      from: { path: '^src/output/' },
      to: { path: `^src/(validate|io|config|emulator|${APPLICATION})/` },
    },
    {
      name: 'validate-not-above',
      severity: 'error',
      comment: 'Flag checks are pure: no files, config, emulator or commands.',
      from: { path: '^src/validate/' },
      to: { path: `^src/(io|config|emulator|${APPLICATION})/` },
    },
    {
      name: 'io-not-above',
      severity: 'error',
      comment: 'io/ (CSV, checkpoints, progress, shell quoting) serves the layers above; it takes no Ctx and no verb.',
      from: { path: '^src/io/' },
      to: { path: `^src/(config|emulator|${APPLICATION})/` },
    },
    {
      name: 'below-cli-not-cli',
      severity: 'error',
      comment: 'Nothing below the shell imports src/cli/ (Ctx, the command model, the Ctx-taking helpers).',
      from: { path: LOWER },
      to: { path: '^src/cli/' },
    },
    {
      name: 'emulator-reads-docs-not-client',
      severity: 'error',
      comment:
        'The emulator is the service\'s independent reading of the docs: it imports none of the client\'s code (src/api, ' +
        'io, output, validate: its HTTP client, cron, CSV, records…) to decide an answer, or a misreading there would pass ' +
        'the tests of both sides. A table both need is data in src/tables/, checked against the docs by a test.',
      from: { path: '^src/emulator/' },
      to: { path: '^src/(api|io|output|validate)/' },
    },
    {
      name: 'tables-are-data',
      severity: 'error',
      comment: 'src/tables/ holds the documented tables the client and the emulator share: data only, importing nothing.',
      from: { path: '^src/tables/' },
      to: { path: '^src/', pathNot: '^src/tables/' },
    },
    {
      name: 'emulator-not-cli-side',
      severity: 'error',
      comment: 'The emulator runs on its own (sq emulator, tests): it imports no shell, verb, plan, export or config.',
      from: { path: '^src/emulator/' },
      to: { path: `^src/(${APPLICATION}|config)/` },
    },
    {
      name: 'config-not-application',
      severity: 'error',
      comment: 'Profiles and settings are read by the shell; config/ never imports it or a verb.',
      from: { path: '^src/config/' },
      to: { path: `^src/(${APPLICATION}|emulator)/` },
    },
    {
      name: 'verbs-only-from-the-registry',
      severity: 'error',
      comment:
        'Verb files hold verbs: only other verbs and the command registry load them. Library code shared by verbs lives ' +
        'in account/, export/, api/ or commands/_shared/, never in a verb file.',
      from: { path: '^src/', pathNot: ['^src/commands/', '^src/cli/(program|dispatch)\\.ts$', '^src/completion/'] },
      to: { path: '^src/commands/' },
    },
    {
      name: 'no-verb-imports-a-verb',
      severity: 'error',
      comment:
        'A verb file holds one verb: it imports no other verb file (what verbs share is in a _shared/ folder, an engine ' +
        'below, or the contract). Only an index.ts registers verbs: a noun its verbs, a verb its subcommands.',
      from: { path: '^src/commands/', pathNot: '(^|/)index\\.ts$' },
      to: { path: '^src/commands/', pathNot: '/_shared/' },
    },
    {
      name: 'commands-not-emulator',
      severity: 'error',
      comment: 'Commands talk to the API through src/api; the emulator is started only by `sq emulator` (src/commands/emulator/).',
      from: { path: '^src/commands/', pathNot: '^src/commands/emulator/' },
      to: { path: '^src/emulator/' },
    },
    {
      name: 'account-not-noun-shared',
      severity: 'error',
      comment: "The account-as-code modules use src/api and shared libraries, never a noun's commands/*/_shared/.",
      from: { path: '^src/account/' },
      to: { path: '^src/commands/[^/]+/_shared/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
