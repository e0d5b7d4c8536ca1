// The emulator's feature modules: Auto Billing Reset, delivery configuration and its test operations,
// webhooks, SFTP uploads and the simulated e-mail / Google Sheet / S3 channels.
import type { Emu, EmuResponse } from './types.js';
import { registerBilling } from './billing.js';
import {
  FieldError, email, httpUrl, onRunExportedSimple, port, registerDeliveryConfig, sendMail, str, validationError,
} from './delivery.js';
import { isRecord, type Rec } from './util.js';
import { registerSftp, testSftp } from './sftp.js';
import { postJson, registerWebhooks, webhookTimeout, webhookTimestamp } from './webhooks.js';

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
    sendMail(emu, to, 'Test e-mail from your scraping platform', 'This is a test of e-mail delivery. It arrived, so e-mail delivery works.');
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

export function registerFeatures(emu: Emu): () => void {
  const stops: (() => void)[] = [];
  stops.push(registerBilling(emu));
  registerDeliveryConfig(emu);
  registerDeliveryTests(emu);
  stops.push(registerWebhooks(emu));
  stops.push(registerSftp(emu));
  const onExported = (run: Rec, rows: Rec[]): void => onRunExportedSimple(emu, run, rows);
  emu.events.on('run.exported', onExported);
  stops.push(() => emu.events.off('run.exported', onExported));
  return () => {
    for (const s of stops.reverse()) s();
  };
}
