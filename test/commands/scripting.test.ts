// Scripting like gh: --jq (real jq, loaded only when given), --template (Go text/template subset), --fields checked
// against the data, and sq api -H / -i.
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { sq } from '../helpers/cli.js';
import { DEMO_SQUIDS } from '../../src/emulator/seed.js';
import { tempDir } from '../helpers/fs.js';
import { lastJsonLine } from '../helpers/json.js';

const emu = useEmulator({ each: 'reset' });
const names = async () =>
  JSON.parse((await sq(['squids', 'list', '--json'], { env: emu.env() })).stdout).map(
    (s: { name: string }) => s.name,
  ) as string[];

describe('--jq', () => {
  it('runs on the JSON --json would print: raw strings unquoted, one per line', async () => {
    const all = await names();
    const r = await sq(['squids', 'list', '--jq', '.[].name'], { env: emu.env() });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(all.map((n) => `${n}\n`).join(''));
  });

  it('other values are compact JSON, one per line; select and several outputs work', async () => {
    const paris = emu.squidId(DEMO_SQUIDS.paris);
    const r = await sq(
      ['squids', 'list', '--jq', '.[] | select(.name == "Paris restaurants") | {id, name}, .concurrency, null'],
      { env: emu.env() },
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`{"id":"${paris}","name":"Paris restaurants"}\n1\nnull\n`);
  });

  it('applies after --fields (fields first, then jq), on a single record too', async () => {
    const r = await sq(['me', '--fields', 'email,plan', '--jq', 'keys'], { env: emu.env() });
    expect(r.stdout).toBe('["email","plan"]\n');
    expect(r.code).toBe(0);
  });

  it('no output is no output, exit 0', async () => {
    const r = await sq(['squids', 'list', '--jq', '.[] | select(.name == "none")'], { env: emu.env() });
    expect(r).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it("a bad expression is exit 2 with jq's message, before any request", async () => {
    const r = await sq(['squids', 'list', '--jq', '.[] | nosuchfn'], { env: emu.env() });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(lastJsonLine(r.stderr).error).toEqual({
      code: 2,
      status: null,
      message: '--jq: nosuchfn/0 is not defined at <top-level>, line 1:\n.[] | nosuchfn',
      retry_after: null,
    });
    const syntax = await sq(['squids', 'list', '--jq', '.['], { env: emu.env() });
    expect(syntax.code).toBe(2);
    expect(lastJsonLine(syntax.stderr).error.message).toMatch(/^--jq: syntax error, unexpected end of file/);
    expect(await emu.requests()).toEqual([]);
  });

  it('a bad expression on a write sends nothing', async () => {
    const r = await sq(['squids', 'update', 'Paris restaurants', '--concurrency', '2', '--jq', '.name |'], {
      env: emu.env(),
    });
    expect(r.code).toBe(2);
    expect(lastJsonLine(r.stderr).error.message).toMatch(/^--jq: syntax error/);
    expect(await emu.requests()).toEqual([]);
  });

  it('an error jq raises on the data is exit 1 with its message, and nothing on stdout', async () => {
    const r = await sq(['squids', 'list', '--jq', '.[].name | tonumber'], { env: emu.env() });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(lastJsonLine(r.stderr).error.message).toMatch(/^--jq: Invalid numeric literal/);
  });

  it.each([
    [
      ['--jq', '.', '--format', 'csv'],
      '--jq works on JSON output and conflicts with --format csv; drop --format (--jq implies --json)',
    ],
    [['--jq', '.', '--format', 'ndjson'], '--jq works on JSON output and conflicts with --format ndjson'],
    [['--template', '{{.}}', '--format', 'table'], '--template works on JSON output and conflicts with --format table'],
    [['--jq', '.', '--template', '{{.}}'], '--jq and --template cannot be used together; pass only one of them'],
    [['--jq', ' '], '--jq needs an expression'],
    [['--template', '{{range .}}'], '--template: unclosed {{range}}: add {{end}}'],
    [['--template', '{{.name | nosuch}}'], '--template: function "nosuch" not defined'],
    [['--template', '{{end}}'], '--template: {{end}} without if, with or range'],
  ])('%j → exit 2 before any request', async (flags, message) => {
    const r = await sq(['squids', 'list', ...flags], { env: emu.env() });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(lastJsonLine(r.stderr).error.message).toContain(message);
    expect(await emu.requests()).toEqual([]);
  });

  it('--jq --json and --jq --format json are accepted', async () => {
    for (const extra of [['--json'], ['--format', 'json']]) {
      const r = await sq(['squids', 'list', '--jq', 'length', ...extra], { env: emu.env() });
      expect(r.stdout).toBe(`${(await names()).length}\n`);
    }
  });

  it('secrets stay masked', async () => {
    emu.expectWrites('POST /v1/delivery');
    const pw = 'jq-Secret-Password-1';
    // The SFTP echo carries the password (GET /v1/squids never does).
    const r = await sq(
      [
        'delivery',
        'sftp',
        '--squid',
        'Paris restaurants',
        '--host',
        'h.example.com',
        '--port',
        '22',
        '--username',
        'u',
        '--directory',
        '/d',
        '--password-env',
        'PW',
        '--jq',
        '..|strings',
      ],
      { env: emu.env({ PW: pw }) },
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('********');
    expect(r.stdout).not.toContain(pw);
  });
});

describe('--template', () => {
  it('range, fields, printf padding and string literals', async () => {
    const all = await names();
    const r = await sq(['squids', 'list', '--template', '{{range .}}{{printf "%-20s|" .name}}{{"\\n"}}{{end}}'], {
      env: emu.env(),
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(all.map((n) => `${n.padEnd(20)}|\n`).join(''));
  });

  it('tablerow aligns columns', async () => {
    const r = await sq(
      [
        'squids',
        'list',
        '--template',
        '{{range .}}{{if eq .name "Paris restaurants" "Lyon bakeries"}}{{tablerow .name .concurrency}}{{end}}{{end}}',
      ],
      { env: emu.env() },
    );
    expect(r.stdout.split('\n').filter(Boolean).sort()).toEqual(['Lyon bakeries      1', 'Paris restaurants  1']);
  });
});

describe('--fields names are checked against the data', () => {
  it('an unknown name is exit 2 listing the valid fields, and nothing is written', async () => {
    const r = await sq(['squids', 'list', '--fields', 'id,nmae'], { env: emu.env() });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      new RegExp(
        /^error: --fields: unknown field "nmae"; valid fields: id, name, crawler_name, is_active, /.source +
          /concurrency, .*params\.max_results, .*\(dotted paths reach into objects\)\n/.source,
      ),
    );
  });

  it.each([['json'], ['csv'], ['ndjson'], ['table']])(
    '--format %s: the same check, nothing on stdout',
    async (format) => {
      const r = await sq(['squids', 'list', '--fields', 'bogus', '--format', format], { env: emu.env() });
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
    },
  );

  it('dotted paths, a literal key with dots, and a known column missing from the record are valid', async () => {
    const ok = await sq(['squids', 'list', '--fields', 'name,params.max_results', '--format', 'csv'], {
      env: emu.env(),
    });
    expect(ok.code).toBe(0);
    expect(ok.stdout.split('\n')[0]).toBe('name,params.max_results');
    const single = await sq(['me', '--fields', 'email,plan.name'], { env: emu.env() });
    expect(single.code).toBe(2);
    expect(single.stderr).toContain(
      '--fields: unknown field "plan.name"; valid fields: first_name, last_name, email, email_verified, plan, ',
    );
  });

  it('after a write, an unknown name is a warning (even with --quiet) naming the id, exit 0, never exit 2', async () => {
    emu.expectWrites('POST /v1/squids');
    const r = await sq(['runs', 'start', '--squid', DEMO_SQUIDS.paris, '--json', '--quiet', '--fields', 'idd'], {
      env: emu.env(),
    });
    expect(r.code).toBe(0);
    const run = JSON.parse(r.stdout);
    expect(run.id).toEqual(expect.any(String));
    expect(r.stderr).toContain(`warning: --fields: unknown field "idd"; valid fields: `);
    expect(r.stderr).toContain(`The write was done (id ${run.id})`);
    // The estimate every start makes (it changes nothing), then the one start.
    expect((await emu.requests('POST')).map((q) => q.path)).toEqual(['/v1/squid/estimate', '/v1/runs']);
    const created = await sq(
      [
        'squids',
        'create',
        '--crawler',
        'google-maps-search-export',
        '--name',
        'Fields typo',
        '--fields',
        'name,nmae',
        '--format',
        'csv',
      ],
      { env: emu.env() },
    );
    expect([created.code, created.stdout]).toEqual([0, 'name\nFields typo\n']);
    expect(created.stderr).toContain('unknown field "nmae"');
    expect(created.stderr).toMatch(/The write was done \(id [0-9a-f]+\)/);
  });

  it('a streamed --all export to a file stops before writing anything', async () => {
    const { readdirSync } = await import('node:fs');
    const { join } = await import('node:path');
    const d = tempDir('sq-fields-');
    const r = await sq(
      ['results', 'list', '--squid', 'Paris restaurants', '--all', '--fields', 'nope', '-o', join(d, 'out.csv')],
      { env: emu.env() },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--fields: unknown field "nope"; valid fields: id, squid, run,');
    expect(readdirSync(d)).toEqual([]);
  });
});

describe('sq api -H and -i', () => {
  it('-H sends the header; a secret-named one is masked in --verbose traces', async () => {
    const r = await sq(
      ['api', '/v1/me', '-H', 'X-Trace-Id: abc-123', '-H', 'X-Api-Key: very-secret-value', '-v', '--jq', '.email'],
      { env: emu.env() },
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('demo@sq-emulator.local\n');
    const [req] = await emu.requests();
    expect(req.headers['x-trace-id']).toBe('abc-123');
    expect(r.stderr).toContain('> x-trace-id: abc-123');
    expect(r.stderr).toContain('> x-api-key: ********');
    expect(r.stderr).not.toContain('very-secret-value');
  });

  it.each([
    [['-H', 'Authorization: Token abc'], '-H Authorization is not accepted'],
    [['-H', 'authorization:x'], '-H Authorization is not accepted'],
    [['-H', 'no colon'], '-H/--header takes "Name: value"'],
    [['-H', ': v'], '-H/--header takes "Name: value"'],
    [['-i', '--paginate'], '-i/--include shows one response; it cannot be combined with --paginate'],
  ])('%j → exit 2 before any request', async (flags, message) => {
    const r = await sq(['api', '/v1/squids', ...flags], { env: emu.env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stderr).not.toContain('Token abc');
    expect(await emu.requests()).toEqual([]);
  });

  it('-i prints the status line and headers, then the body', async () => {
    const r = await sq(['api', '-i', '/v1/me', '--jq', '.email'], { env: emu.env() });
    expect(r.code).toBe(0);
    const [head, body] = r.stdout.split('\n\n');
    const lines = head.split('\n');
    expect(lines[0]).toBe('HTTP/1.1 200 OK');
    expect(lines).toContain('Content-Type: application/json');
    expect(lines.slice(1)).toEqual([...lines.slice(1)].sort());
    expect(body).toBe('demo@sq-emulator.local\n');
  });

  it('-i on a 4xx shows the answer, then exits with its code', async () => {
    const r = await sq(['api', '-i', '/v1/squids/0000'], { env: emu.env() });
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/^HTTP\/1\.1 404 Not Found\n/);
    expect(r.stdout).toContain('"message": "Squid not found."');
  });

  it('-i masks secret-looking response headers unless --show-secrets', async () => {
    await emu.faults([
      {
        path: '/v1/me',
        action: 'status',
        status: 200,
        headers: { 'set-cookie': 'session=abcd1234secret' },
        body: { ok: true },
      },
    ]);
    const r = await sq(['api', '-i', '/v1/me'], { env: emu.env() });
    expect(r.stdout).toContain('Set-Cookie: ********\n');
    expect(r.stdout).not.toContain('abcd1234secret');
  });

  it('a password sent with -F is scrubbed from the error when the server quotes the body back', async () => {
    emu.expectWrites('POST /v1/delivery');
    await emu.faults([
      {
        method: 'POST',
        path: '/v1/delivery',
        action: 'status',
        status: 400,
        body: { detail: 'bad ftp_fields: {"password": "PWF-9911-X"}' },
      },
    ]);
    const r = await sq(['api', '/v1/delivery', '-X', 'POST', '-F', 'ftp_fields={"password":"PWF-9911-X"}'], {
      env: emu.env(),
    });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('bad ftp_fields');
    expect(r.stdout + r.stderr).not.toContain('PWF-9911-X');
  });

  it('--paginate prints one JSON array by default (NDJSON with --format ndjson); --fields picks and checks the records', async () => {
    const all = await names();
    const r = await sq(['api', '/v1/squids', '--paginate'], { env: emu.env() });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).map((s: { name: string }) => s.name)).toEqual(all);
    const nd = await sq(['api', '/v1/squids', '--paginate', '--format', 'ndjson', '--fields', 'name'], {
      env: emu.env(),
    });
    expect(nd.stdout).toBe(all.map((n) => `${JSON.stringify({ name: n })}\n`).join(''));
    const bad = await sq(['api', '/v1/squids', '--paginate', '--fields', 'nmae'], { env: emu.env() });
    expect([bad.code, bad.stdout]).toEqual([2, '']);
  });

  it('--fields picks from the JSON sq api prints by default, and an unknown name is exit 2', async () => {
    const r = await sq(['api', '/v1/me', '--fields', 'email'], { env: emu.env() });
    expect([r.code, r.stdout]).toEqual([0, '{\n  "email": "demo@sq-emulator.local"\n}\n']);
    const bad = await sq(['api', '/v1/me', '--fields', 'bogus'], { env: emu.env() });
    expect([bad.code, bad.stdout]).toEqual([2, '']);
    expect(bad.stderr).toContain('--fields: unknown field "bogus"; valid fields: first_name,');
  });

  it('-F with a number JSON cannot carry exactly is exit 2 naming the key, before any request; exact ones are sent', async () => {
    const id = emu.squidId(DEMO_SQUIDS.paris);
    for (const [kv, says] of [
      ['y=12345678901234567890', 'it would be sent as 12345678901234567000'],
      ['x=1e400', 'it is out of range'],
      ['z=0.10000000000000001', 'it would be sent as 0.1'],
    ]) {
      const r = await sq(['--dry-run', 'api', `/v1/squids/${id}`, '-F', kv], { env: emu.env() });
      const key = kv.split('=')[0];
      expect([r.code, r.stdout]).toEqual([2, '']);
      expect(r.stderr).toContain(
        `-F ${key}: ${kv.slice(2)} cannot be sent exactly as a JSON number (${says}); use -f ${kv} to send it as a string`,
      );
    }
    expect(await emu.requests()).toEqual([]);
    const ok = await sq(
      [
        '--dry-run',
        'api',
        `/v1/squids/${id}`,
        '-F',
        'a=1.50e2',
        '-F',
        'b=-0.25',
        '-F',
        'c=9007199254740991',
        '-F',
        'd=0',
        '--json',
      ],
      { env: emu.env() },
    );
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout).requests[0].body).toEqual({ a: 150, b: -0.25, c: 9007199254740991, d: 0 });
  });

  it('the API key echoed back by the server is masked on stdout (body and headers) unless --show-secrets', async () => {
    const key = emu.token;
    await emu.faults([
      {
        path: '/v1/me',
        action: 'status',
        status: 200,
        body: { email: 'me@example.com', note: `your key is ${key}` },
        headers: { 'X-Echo-Key': key },
        count: 50,
      },
    ]);
    for (const args of [
      ['api', '/v1/me'],
      ['api', '-i', '/v1/me'],
      ['me', '--json'],
      ['me', '--jq', '.note'],
      ['me', '--format', 'csv'],
    ]) {
      const r = await sq(args, { env: emu.env() });
      expect([args, r.code]).toEqual([args, 0]);
      expect(r.stdout).toContain('********');
      expect(r.stdout).not.toContain(key);
    }
    const head = await sq(['api', '-i', '/v1/me'], { env: emu.env() });
    expect(head.stdout).toContain('X-Echo-Key: ********\n');
    const shown = await sq(['me', '--jq', '.note', '--show-secrets'], { env: emu.env() });
    expect(shown.stdout).toBe(`your key is ${key}\n`);
  });

  it('-i masks the secret query values of URLs in other headers (Location), and -H refuses line breaks; an empty path is exit 2', async () => {
    await emu.faults([
      {
        path: '/v1/me',
        action: 'status',
        status: 200,
        headers: { location: 'https://x.example/cb?token=LOCTOK99&page=2' },
        body: { ok: true },
      },
    ]);
    const r = await sq(['api', '-i', '/v1/me'], { env: emu.env() });
    expect(r.stdout).toContain('Location: https://x.example/cb?token=');
    expect(r.stdout).toContain('page=2');
    expect(r.stdout).not.toContain('LOCTOK99');
    await emu.clearRequests();
    const crlf = await sq(['api', '/v1/me', '-H', 'X-A: a\rb'], { env: emu.env() });
    expect([crlf.code, crlf.stderr]).toEqual([
      2,
      expect.stringContaining('-H/--header x-a: a value cannot contain a line break'),
    ]);
    const empty = await sq(['api', ''], { env: emu.env() });
    expect([empty.code, empty.stderr]).toEqual([2, expect.stringContaining('<path> must not be empty')]);
    expect(await emu.requests()).toEqual([]);
  });
});
