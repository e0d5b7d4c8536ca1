// The one pre-scan of argv, made before commander parses it: bin/sq.js names its code cache after the noun before the
// bundle loads (it requires this file within dist/launcher.cjs, built by esbuild.config.mjs), program.ts loads only that
// noun, and main.ts reads the output globals it needs to print an error that happens before parsing ends.
// Standalone on purpose: no imports, so the launcher's copy costs one tiny file.

/** Global options that take a value (test/unit checks this list against program.ts's GLOBAL_OPTIONS). */
export const VALUE_GLOBALS: readonly string[] = [
  '--profile',
  '--base-url',
  '--format',
  '--fields',
  '--jq',
  '--template',
];

interface ArgvScan {
  /** The first token that is neither an option nor a global option's value (or the one after `--`). */
  noun: string | undefined;
  index: number;
  /** Every option token up to `--`, as written; a value-taking global maps to its value (`--format csv`, `--format=csv`). */
  options: Map<string, string | true>;
}

export function scanArgv(argv: readonly string[]): ArgvScan {
  const options = new Map<string, string | true>();
  let noun: string | undefined;
  let index = -1;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') {
      if (index < 0 && i + 1 < argv.length) (noun = argv[i + 1]), (index = i + 1);
      break;
    }
    if (!a.startsWith('-')) {
      if (index < 0) (noun = a), (index = i);
      continue;
    }
    const eq = a.startsWith('--') ? a.indexOf('=') : -1;
    const name = eq > 0 ? a.slice(0, eq) : a;
    if (!VALUE_GLOBALS.includes(name)) options.set(a, true);
    else if (eq > 0) options.set(name, a.slice(eq + 1));
    else if (i + 1 < argv.length) options.set(name, argv[++i]);
  }
  return { noun, index, options };
}

export { boundedJq } from './jq-bounded.js';
