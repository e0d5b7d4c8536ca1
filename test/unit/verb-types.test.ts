// A verb's options are typed from its flags (src/cli/command.ts, OptionsOf): `npm test` type-checks this file, and each
// expected-error directive below fails the build if the error it expects stops being one.
import { describe, expect, it } from 'vitest';
import { defineOptions, defineVerb, type OptionsOf, type OptionSpec } from '../../src/cli/command.js';
import { exclusive, required } from '../../src/validate/index.js';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const same = <A, B>(ok: Equal<A, B>) => ok;

const OPTIONS = defineOptions([
  { flags: '--squid <squid>', description: 'a value' },
  { flags: '-o, --output <file>', description: 'short and long' },
  { flags: '-y, --yes', description: 'a switch' },
  { flags: '--no-retry', description: 'a negation' },
  { flags: '--since [when]', description: 'an optional value' },
  { flags: '--param <key=value>', description: 'repeatable', repeatable: true },
  { flags: '--dry-run-at <time>', description: 'kebab-case' },
]);

describe('typed verb options', () => {
  it('each flag form gives the type commander parses it to', () => {
    expect(
      same<
        OptionsOf<typeof OPTIONS>,
        {
          squid?: string;
          output?: string;
          yes?: boolean;
          retry?: boolean;
          since?: string | true;
          param?: string[];
          dryRunAt?: string;
        }
      >(true),
    ).toBe(true);
  });

  it('a misspelt flag is a compile error, in the verb and in exclusive()', () => {
    const verb = defineVerb({
      name: 'demo',
      summary: 'a verb for the type test',
      options: OPTIONS,
      examples: ['sq demo'],
      async run(_ctx, _args, opts) {
        // @ts-expect-error -- no --squdi flag
        void opts.squdi;
        // @ts-expect-error -- no --outptu flag
        exclusive(opts, [['--squid', '--outptu']]);
        exclusive(opts, [['--squid', '--dry-run-at']]);
        return opts.squid === undefined ? 2 : 0;
      },
    });
    expect(verb.name).toBe('demo');
  });

  it('options with non-literal flags are refused, so no verb silently loses its types', () => {
    const loose: OptionSpec[] = [{ flags: '--squid <squid>', description: 'x' }];
    // @ts-expect-error -- an OptionSpec[] variable: flags are plain strings
    defineVerb({ name: 'loose', summary: 'x', options: loose, examples: ['sq loose'], async run() {} });
    expect(loose).toHaveLength(1);
  });

  it('required() names the flag when the value is missing', () => {
    expect(required('--squid', 'abc')).toBe('abc');
    expect(() => required('--squid', undefined, 'which squid')).toThrow('--squid is required: which squid');
    expect(() => required('--squid', true)).toThrow('--squid is required');
  });
});
