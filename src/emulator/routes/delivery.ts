// The delivery routes: POST /v1/delivery?squid= (configure one channel), the five test operations
// (POST /v1/delivery/test-*), and the control plane's delivery log and outbox. The checks and the channels are in
// delivery.ts, sftp.ts and webhooks.ts; this file translates HTTP to them.
import type { Emu, EmuResponse } from '../types.js';
import { configureDelivery, email, FieldError, httpUrl, port, sendMail, str, validationError } from '../delivery.js';
import { maskDeep } from '../../lib/secrets.js';
import { errB, isRecord, type Rec } from '../util.js';
import { testSftp } from '../sftp.js';
import { postJson, webhookTimeout, webhookTimestamp } from '../webhooks.js';
import * as store from '../model/store.js';

export function registerDelivery(emu: Emu): void {
  registerDeliveryConfig(emu);
  registerDeliveryTests(emu);
}

function registerDeliveryConfig(emu: Emu): void {
  emu.route('POST', '/v1/delivery', (req) => {
    const hash = req.query.get('squid');
    if (!hash) return errB(400, 'Query parameter squid (the squid hash) is required', 'squid');
    const squid = store.record(emu, 'squids', hash);
    if (!squid) return errB(404, `Squid ${hash} does not exist`, 'squid');
    try {
      return { status: 201, body: configureDelivery(emu, squid, req.body) };
    } catch (e) {
      if (e instanceof FieldError) return validationError(e);
      throw e;
    }
  });

  emu.route('GET', '/_emulator/deliveries', (req) => {
    const filters = ['kind', 'squid', 'run', 'event'].map((k) => [k, req.query.get(k)] as const).filter(([, v]) => v);
    const rows = store.deliveries(emu).filter((d) => filters.every(([k, v]) => String((d as unknown as Rec)[k]) === v));
    // A webhook's target carries its token (?token=, a Slack or Discord path): masked like the request log masks it.
    return { status: 200, body: maskDeep(rows, '****') };
  });

  emu.route('GET', '/_emulator/outbox', () => ({ status: 200, body: store.outbox(emu) }));
}

type TestHandler = (body: Rec) => Promise<EmuResponse> | EmuResponse;

function testRoute(emu: Emu, name: string, fn: TestHandler): void {
  emu.route('POST', `/v1/delivery/test-${name}`, async (req) => {
    try {
      return await fn(isRecord(req.body) ? req.body : {});
    } catch (e) {
      if (e instanceof FieldError) return validationError(e);
      throw e;
    }
  });
}

/**
 * Every test answer carries `status_code` (api-reference §9). For the webhook it is what the receiver answered; the
 * other channels have no HTTP receiver, so it gives the outcome of the check as a status: 200 passed, 400 failed.
 */
function checked(ok = true): Rec {
  return { success: ok, status_code: ok ? 200 : 400 };
}

function registerDeliveryTests(emu: Emu): void {
  testRoute(emu, 'webhook', async (b) => {
    const url = httpUrl(b, 'url', 'url');
    const out = await postJson(
      url,
      {
        id: 'test',
        object: 'run',
        event: 'run.done',
        squid: { id: 'test', name: 'Webhook test' },
        timestamp: webhookTimestamp(emu.clock.now()),
      },
      webhookTimeout(emu),
    );
    const body: Rec = { success: out.ok, status_code: out.status_code };
    if (out.error) body.error = out.error;
    return { status: 200, body };
  });

  testRoute(emu, 'sftp', async (b) => {
    const login = {
      host: str(b, 'host', 'host'),
      port: port(b, 'port', 'port'),
      username: str(b, 'username', 'username'),
      password: str(b, 'password', 'password'),
      directory: str(b, 'directory', 'directory'),
    };
    const error = await testSftp(login);
    return { status: 200, body: error === null ? checked() : { ...checked(false), error } };
  });

  testRoute(emu, 'email', (b) => {
    const to = email(b, 'email', 'email');
    sendMail(
      emu,
      to,
      'Test e-mail from your scraping platform',
      'This is a test of e-mail delivery. It arrived, so e-mail delivery works.',
    );
    return { status: 200, body: checked() };
  });

  testRoute(emu, 'googlesheet', (b) => {
    httpUrl(b, 'url', 'url');
    return { status: 200, body: checked() };
  });

  testRoute(emu, 's3', (b) => {
    str(b, 'bucket', 'bucket');
    for (const k of ['aws_access_key', 'aws_secret_key']) if (b[k] !== undefined && b[k] !== null) str(b, k, k);
    return { status: 200, body: checked() };
  });
}
