// API data quoted in errors and messages (a squid's name in "did you mean") reaches stderr without control characters.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/fs.js';
import { useEmulator } from '../helpers/emulator.js';
import { sq, tempConfigDir } from '../helpers/cli.js';
import { lastJsonLine } from '../helpers/json.js';
import { DEMO_CRAWLERS, DEMO_SQUIDS } from '../../src/emulator/seed.js';

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

// Issue 33 E15: scraped data with escape sequences (an OSC 52 clipboard write among them) reached the terminal raw
// through --format csv, tsv, json and ndjson; only the table was made safe. Piped, the bytes stay as they are.
const OSC52 = '\x1b]52;c;ZWNobyBwd25lZA==\x07';
const NASTY = `Bistro${OSC52}\x1b[2J\r\x9b31mX\x7f`;

describe('scraped control characters on a terminal', () => {
  async function evilResult() {
    const squid = emu.squidId(DEMO_SQUIDS.paris);
    const page = {
      data: [
        {
          id: 'r1',
          object: 'result',
          squid,
          name: NASTY,
          website: '=HYPERLINK("https://evil.test","x")',
          phone: '+33 1 23',
          note: '@SUM(A1)',
          score: -5,
        },
      ],
      total_results: 1,
      total_pages: 1,
      page: 1,
      limit: 100,
      next: null,
    };
    await emu.faults([{ path: '/v1/results', method: 'GET', action: 'status', status: 200, body: page, count: 5 }]);
  }
  const args = [
    'results',
    'list',
    '--squid',
    DEMO_SQUIDS.paris,
    '--all',
    '--fields',
    'id,name,website,phone,note,score',
  ];

  it.each(['csv', 'tsv', 'json', 'ndjson'])(
    '--format %s to a terminal: no control character but tab and newline; piped: as it is',
    async (format) => {
      await evilResult();
      const r = await sq([...args, '--format', format], { env: emu.env(), tty: true });
      expect(r.code, r.stderr).toBe(0);
      // eslint-disable-next-line no-control-regex
      expect(r.stdout).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
      expect(r.stdout).toContain('Bistro');
      if (format === 'json' || format === 'ndjson') {
        // Escaped, not lost: the document still reads back to the same value.
        const doc = format === 'json' ? JSON.parse(r.stdout)[0] : JSON.parse(r.stdout.trim());
        expect(doc.name).toBe(NASTY);
      }
      await evilResult();
      const piped = await sq([...args, '--format', format], { env: emu.env() });
      expect(piped.stdout).toContain(format === 'csv' || format === 'tsv' ? OSC52 : '\\u001b]52;c;');
    },
  );

  it('--jq and --template to a terminal are made safe too', async () => {
    for (const filter of [
      ['--jq', '.[].name'],
      ['--template', '{{range .}}{{.name}}{{end}}'],
    ]) {
      await evilResult();
      const r = await sq([...args, ...filter], { env: emu.env(), tty: true });
      expect(r.code, r.stderr).toBe(0);
      // eslint-disable-next-line no-control-regex
      expect(r.stdout).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
      expect(r.stdout).toContain('Bistro');
    }
  });

  it("--csv-safe (or SQ_CSV_SAFE=1): formula-looking text cells get a leading ', numbers stay numbers; without it, as they are", async () => {
    for (const [flags, env] of [
      [['--csv-safe'], {}],
      [[], { SQ_CSV_SAFE: '1' }],
    ] as const) {
      await evilResult();
      const r = await sq([...args, '--format', 'csv', '--fields', 'website,phone,note,score', ...flags], {
        env: emu.env(env),
      });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe(
        `website,phone,note,score\n"'=HYPERLINK(""https://evil.test"",""x"")",'+33 1 23,'@SUM(A1),-5\n`,
      );
    }
    await evilResult();
    const plain = await sq([...args, '--format', 'tsv', '--fields', 'website,note'], { env: emu.env() });
    expect(plain.stdout).toBe('website\tnote\n=HYPERLINK("https://evil.test","x")\t@SUM(A1)\n');
  });

  it("the profile's csv-safe setting (sq config set csv-safe on) does what --csv-safe does; off, or a bad value, is refused or plain", async () => {
    const env = emu.env({ SQ_CONFIG_DIR: tempConfigDir() });
    expect((await sq(['config', 'set', 'csv-safe', 'maybe'], { env })).code).toBe(2);
    expect((await sq(['config', 'set', 'csv-safe', 'on'], { env })).code).toBe(0);
    await evilResult();
    const safe = await sq([...args, '--format', 'tsv', '--fields', 'website,note'], { env });
    expect(safe.code, safe.stderr).toBe(0);
    expect(safe.stdout).toBe('website\tnote\n\'=HYPERLINK("https://evil.test","x")\t\'@SUM(A1)\n');
    // To a file too: the export's plan is made before the profile is read (sq go makes it before any request).
    await evilResult();
    const file = join(tempDir('sq-csv-safe-'), 'r.tsv');
    const toFile = await sq([...args, '--fields', 'website,note', '-o', file], { env });
    expect(toFile.code, toFile.stderr).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe('website\tnote\n\'=HYPERLINK("https://evil.test","x")\t\'@SUM(A1)\n');
    expect((await sq(['config', 'set', 'csv-safe', 'off'], { env })).code).toBe(0);
    await evilResult();
    const plain = await sq([...args, '--format', 'tsv', '--fields', 'website,note'], { env });
    expect(plain.stdout).toBe('website\tnote\n=HYPERLINK("https://evil.test","x")\t@SUM(A1)\n');
  });
});
