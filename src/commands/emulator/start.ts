import { defineVerb } from '../../cli/command.js';
import {
  EmulatorOptionError,
  parseEmulatorOptions,
  PORT_MAX,
  PORT_MIN,
  TIME_SCALE_MAX,
  TIME_SCALE_MIN,
} from '../../emulator/cli.js';
import { UsageError } from '../../errors.js';
import { distFile, importPackage } from '../../import-package.js';

export default defineVerb({
  name: 'start',
  output: 'text',
  summary: 'Start the emulator; prints {"base_url","token"} as one JSON line on stdout',
  description:
    'Starts the emulator in the foreground until Ctrl-C (SIGINT) or SIGTERM. Once listening it prints one JSON line ' +
    '{"base_url":"http://127.0.0.1:PORT","token":"..."} on stdout and, on stderr, the export line to paste so sq uses it.',
  options: [
    { flags: '--host <host>', description: 'address to bind (loopback by default)', defaultText: '127.0.0.1' },
    { flags: '--port <n>', description: `port, ${PORT_MIN}-${PORT_MAX}; 0 picks a free one`, defaultText: '8787' },
    { flags: '--seed <seed>', description: 'initial data', choices: ['demo', 'empty'], defaultText: 'demo' },
    {
      flags: '--clock <clock>',
      description: 'business time for runs, webhook retries, billing checks',
      choices: ['real', 'virtual'],
      defaultText: 'real',
    },
    {
      flags: '--time-scale <n>',
      description: `real clock speed-up, e.g. 60 = one minute per second (${TIME_SCALE_MIN}-${TIME_SCALE_MAX})`,
      defaultText: '1',
    },
    { flags: '--free-plan', description: 'cap paginated lists at 50 records with the free-plan warning' },
    {
      flags: '--rate-limits <mode>',
      description: 'on, off, or a multiplier of the documented limits (e.g. 0.1)',
      defaultText: 'on',
    },
    { flags: '--state <file>', description: 'keep state across restarts in this file (written atomically)' },
  ],
  examples: [
    'sq emulator start',
    'sq emulator start --port 0 --seed empty --clock virtual',
    'sq emulator start --time-scale 60 --state ./emulator-state.json',
  ],
  async run(ctx, _args, opts) {
    // The emulator's own check (its defaults apply to what is left out), as a usage error: exit 2 before anything
    // is loaded or started. Only this check and the bounds come into the bundle; esbuild drops the rest of cli.ts.
    let options: ReturnType<typeof parseEmulatorOptions>;
    try {
      options = parseEmulatorOptions(opts);
    } catch (e) {
      if (e instanceof EmulatorOptionError) throw new UsageError(e.message);
      throw e;
    }
    // The emulator is not in the CLI's bundle (dist/sq.cjs): it is a long-running server that gains nothing from
    // a fast start, and every other command would pay to read its code. It runs from dist/ as ES modules.
    const { runEmulatorCommand } = await importPackage<typeof import('../../emulator/cli.js')>(
      distFile('emulator/cli.js'),
    );
    return runEmulatorCommand(options, { stdout: ctx.io.stdout, stderr: ctx.io.stderr });
  },
});
