// The commands' specs: each noun's as the build declared it (dist/specs/<noun>.json), with a loader for each verb's
// run, or its modules when there is no such file. No commander here: program.ts builds commander's tree from these,
// and dispatch.ts parses a plain command line with them alone.
import { readFileSync } from 'node:fs';
import type { NounEntry, NounSpec, VerbSpec } from '../cli/command.js';

export function isVerb(m: NounSpec | VerbSpec): m is VerbSpec {
  return typeof (m as VerbSpec).run === 'function';
}

/**
 * Each noun's spec as JSON, written by the build from its modules (esbuild.config.mjs: dist/specs/<noun>.json), with
 * `true` for each `run`. The command tree is built from it, and a noun's modules load only when one of its verbs runs:
 * help (`sq squids --help`) evaluates none of them, nor what they import. A verb declared the usual way is in it.
 * Without the file (src/ run by the tests, the standalone executable) the modules are loaded.
 */
function declaredSpec(name: string): string | undefined {
  // `name` is one of NOUNS (src/commands/index.ts), never a word typed: the build wrote the file by that name.
  // The bundle (dist/sq.cjs) sits beside dist/specs/; this module unbundled (dist/shell/specs.js) one level below. A
  // path, not a URL: making import.meta.url's file URL cost the bundle on every call.
  for (const dir of ['/specs/', '/../specs/']) {
    try {
      return readFileSync(`${import.meta.dirname}${dir}${name}.json`, 'utf8');
    } catch {
      // not there: the next place, then the modules themselves
    }
  }
  return undefined;
}

export async function loadEntry(entry: NounEntry): Promise<NounSpec | VerbSpec> {
  return withRuns(entry, declaredSpec(entry.name));
}

async function withRuns(entry: NounEntry, declared: string | undefined): Promise<NounSpec | VerbSpec> {
  if (declared === undefined) return (await entry.load()).default;
  const spec = JSON.parse(declared) as NounSpec | VerbSpec;
  const lazy = (v: VerbSpec, path: string[], file?: string) => {
    v.run = async (...args) => (await verbAt(entry, path, file)).run(...args);
    for (const sub of v.subcommands ?? []) lazy(sub, [...path, sub.name], file);
  };
  if ('verbs' in spec) for (const v of spec.verbs) lazy(v, [v.name], (v as VerbSpec & { module?: string }).module);
  else lazy(spec, []);
  return spec;
}

/**
 * In the bundle (esbuild.config.mjs): each verb's own file, to import alone, by the `module` its spec names. Not
 * defined in the unbundled dist/, which loads the noun's index.
 */
declare const sqVerbModules: Readonly<Record<string, () => Promise<{ default: VerbSpec }>>> | undefined;

/** The verb at `path` (verb, subcommand…) in its own file if the bundle has it, else in the noun's module. */
async function verbAt(entry: NounEntry, path: string[], file?: string): Promise<VerbSpec> {
  const own = file !== undefined && typeof sqVerbModules === 'object' ? sqVerbModules[file] : undefined;
  const spec = own ? { verbs: [(await own()).default] } : (await entry.load()).default;
  let verb = 'verbs' in spec ? spec.verbs.find((v) => v.name === path[0]) : spec;
  for (const name of path.slice('verbs' in spec ? 1 : 0)) verb = verb?.subcommands?.find((v) => v.name === name);
  if (!verb) throw new Error(`the command ${[entry.name, ...path].join(' ')} is not in its module`);
  return verb;
}
