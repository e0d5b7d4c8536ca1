// API data quoted in errors and messages (a squid's name in "did you mean") reaches stderr without control characters.
import { expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { sq } from '../helpers/cli.js';
import { lastJsonLine } from '../helpers/json.js';
import { DEMO_CRAWLERS } from '../../src/emulator/seed.js';

const emu = useEmulator({ each: 'reset' });
const EVIL = 'Evil\x1b]0;pwned\x07\x1b[31mRED';

it('a squid name with escape sequences is printed without them in the "did you mean" of an error', async () => {
  // Made through the API: sq itself refuses control characters in --name (exit 2), but the service may hold them.
  const made = await emu.api('/v1/squids', { method: 'POST', body: { crawler: DEMO_CRAWLERS.googleMaps, name: EVIL } });
  expect(made.name).toBe(EVIL);
  const r = await sq(['runs', 'list', '--squid', 'evil'], { env: emu.env() });
  expect(r.code).toBe(3);
  expect(r.stderr).toContain('did you mean:\n');
  expect(r.stderr).toContain('Evil\uFFFD]0;pwned\uFFFD\uFFFD[31mRED');
  // eslint-disable-next-line no-control-regex
  expect(r.stderr).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/);
  const json = await sq(['runs', 'list', '--squid', 'evil', '--json'], { env: emu.env() });
  expect(lastJsonLine(json.stderr).error.details.join('\n')).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/);
});
