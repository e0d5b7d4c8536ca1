import { defineVerb } from '../../command.js';
import { UsageError } from '../../errors.js';
import { distFile, importPackage } from '../../import-package.js';
import { enumFlag, intFlag, nonEmpty } from '../../validate/index.js';

export default defineVerb({
  name: 'start',
  summary: 'Start the emulator; prints {"base_url","token"} as one JSON line on stdout',
  description:
    'Starts the emulator in the foreground until Ctrl-C (SIGINT) or SIGTERM. Once listening it prints one JSON line ' +
    '{"base_url":"http://127.0.0.1:PORT","token":"..."} on stdout and, on stderr, the export line to paste so sq uses it.',
  options: [
    { flags: '--host <host>', description: 'address to bind (loopback by default)', defaultText: '127.0.0.1' },
    { flags: '--port <n>', description: 'port, 0-65535; 0 picks a free one', defaultText: '8787' },
    { flags: '--seed <seed>', description: 'initial data', choices: ['demo', 'empty'], defaultText: 'demo' },
    { flags: '--clock <clock>', description: 'business time for runs, webhook retries, billing checks', choices: ['real', 'virtual'], defaultText: 'real' },
    { flags: '--time-scale <n>', description: 'real clock speed-up, e.g. 60 = one minute per second (1-3600)', defaultText: '1' },
    { flags: '--free-plan', description: 'cap paginated lists at 50 records with the free-plan warning' },
    { flags: '--rate-limits <mode>', description: 'on, off, or a multiplier of the documented limits (e.g. 0.1)', defaultText: 'on' },
    { flags: '--state <file>', description: 'keep state across restarts in this file (written atomically)' },
  ],
  examples: [
    'sq emulator start',
    'sq emulator start --port 0 --seed empty --clock virtual',
    'sq emulator start --time-scale 60 --state ./emulator-state.json',
  ],
  async run(ctx, _args, opts) {
    const rateLimits = parseRateLimits(opts.rateLimits);
    const options = {
      host: opts.host === undefined ? '127.0.0.1' : nonEmpty('--host', opts.host),
      port: opts.port === undefined ? 8787 : intFlag('--port', opts.port, 0, 65535),
      seed: opts.seed === undefined ? ('demo' as const) : enumFlag('--seed', opts.seed, ['demo', 'empty'] as const),
      clock: opts.clock === undefined ? ('real' as const) : enumFlag('--clock', opts.clock, ['real', 'virtual'] as const),
      timeScale: opts.timeScale === undefined ? 1 : intFlag('--time-scale', opts.timeScale, 1, 3600),
      freePlan: opts.freePlan === true,
      rateLimits,
      stateFile: opts.state === undefined ? undefined : nonEmpty('--state', opts.state),
    };
    // The emulator is not in the CLI's bundle (dist/sq.cjs): it is a long-running server that gains nothing from
    // a fast start, and every other command would pay to read its code. It runs from dist/ as ES modules.
    const { runEmulatorCommand } = await importPackage<typeof import('../../emulator/cli.js')>(distFile('emulator/cli.js'));
    return runEmulatorCommand(options, { stdout: ctx.io.stdout, stderr: ctx.io.stderr });
  },
});

function parseRateLimits(v: unknown): 'on' | 'off' | number {
  if (v === undefined || v === 'on' || v === 'off') return (v ?? 'on') as 'on' | 'off';
  const n = Number(v);
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(n) && n > 0 && n <= 1000) return n;
  throw new UsageError(`--rate-limits must be on, off, or a multiplier greater than 0 and at most 1000 (got ${JSON.stringify(v)})`);
}
