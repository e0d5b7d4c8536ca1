// Errors for people on a terminal, JSON for programs (issue 48): an error is one JSON object on stderr with --json
// (cli-contract.md), and with --jq or --template off a terminal; on a terminal it is a plain line.
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../helpers/emulator.js';
import { sq } from '../helpers/cli.js';

const emu = useEmulator();

describe('errors on a terminal', () => {
  it('a --jq error is one plain line and exit 2', async () => {
    const r = await sq(['squids', 'list', '--jq', '.[] | boom'], { env: { ...emu.env(), NO_COLOR: '1' }, tty: true });
    expect(r.code).toBe(2);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^error: --jq: boom\/0 is not defined at <top-level>, line 1: \.\[\] \| boom$/);
    expect(r.stderr).not.toContain('{"error"');
    expect(r.stdout).toBe('');
  });

  it('a --template error and a usage error beside --jq are plain text too', async () => {
    const t = await sq(['squids', 'list', '--template', '{{range}}'], { env: emu.env(), tty: true });
    expect(t.code).toBe(2);
    expect(t.stderr).toMatch(/^error: --template: /);
    const u = await sq(['squids', 'list', '--limit', 'x', '--jq', '.'], { env: emu.env(), tty: true });
    expect(u.code).toBe(2);
    expect(u.stderr).toMatch(/^error: .*--limit/);
  });

  it('--json on a terminal still gets the JSON error the contract documents', async () => {
    const r = await sq(['squids', 'get', 'nosuchsquid', '--json'], { env: emu.env(), tty: true });
    expect(r.code).toBe(3);
    expect(JSON.parse(r.stderr.trim().split('\n').at(-1)!).error.code).toBe(3);
  });

  it('off a terminal, --jq errors stay JSON for the program reading them', async () => {
    const r = await sq(['squids', 'list', '--jq', '.[] | boom'], { env: emu.env() });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stderr.trim()).error.message).toContain('boom/0 is not defined');
  });
});

describe('sq api: -f on an endpoint that takes GET only', () => {
  it('the 405 says -f made it a POST, and how to send the fields as a query', async () => {
    emu.expectWrites('POST /v1/me');
    const r = await sq(['api', '/v1/me', '-f', 'lang=fr'], { env: { ...emu.env(), NO_COLOR: '1' }, tty: true });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/HTTP 405/);
    expect(r.stderr).toContain('hint: -f/-F made this a POST');
    expect(r.stderr).toContain('sq api /v1/me -X GET -f lang=…');
  });

  it('no hint when the method was chosen (-X POST)', async () => {
    emu.expectWrites('POST /v1/me');
    const r = await sq(['api', '/v1/me', '-X', 'POST', '-f', 'lang=fr'], { env: emu.env() });
    expect(r.code).toBe(1);
    expect(r.stderr).not.toContain('hint: -f/-F');
  });
});
