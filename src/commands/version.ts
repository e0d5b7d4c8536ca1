import { defineVerb } from '../cli/command.js';
import { VERSION } from '../version.js';

export default defineVerb({
  name: 'version',
  summary: 'Show the version of sq, with the Node.js version and the platform',
  description:
    'Prints one line, `sq VERSION (node vX.Y.Z, PLATFORM-ARCH)`; with --json or --format, a record with version, node ' +
    'and platform. `sq --version` prints the version alone. Every API request says `sq/VERSION` in its User-Agent.',
  examples: ['sq version', 'sq version --json'],
  async run(ctx) {
    const info = { version: VERSION, node: process.version, platform: `${process.platform}-${process.arch}` };
    const s = ctx.outputSettings();
    if (s.explicitFormat || s.fields || s.jq !== null || s.template !== null)
      await ctx.out.record(info, { title: 'sq' });
    else ctx.out.text(`sq ${info.version} (node ${info.node}, ${info.platform})\n`);
  },
});
