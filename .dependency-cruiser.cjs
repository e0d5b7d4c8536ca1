/** Import boundaries, checked by `npm run lint:deps` (dependency-cruiser). Type-only imports count too. */
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
