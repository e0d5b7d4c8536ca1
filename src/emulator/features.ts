// The emulator's feature modules: Auto Billing Reset, delivery configuration and its test operations (routes/delivery.ts),
// webhooks, SFTP uploads and the simulated e-mail / Google Sheet / S3 channels.
import type { Emu } from './types.js';
import { startBilling } from './model/billing.js';
import { onRunExportedSimple } from './delivery.js';
import type { Rec } from './util.js';
import { registerSftp } from './sftp.js';
import { registerWebhooks } from './webhooks.js';
import { registerDelivery } from './routes/delivery.js';

export function registerFeatures(emu: Emu): () => void {
  const stops: (() => void)[] = [];
  stops.push(startBilling(emu));
  registerDelivery(emu);
  stops.push(registerWebhooks(emu));
  stops.push(registerSftp(emu));
  const onExported = (run: Rec, rows: Rec[]): void => onRunExportedSimple(emu, run, rows);
  emu.events.on('run.exported', onExported);
  stops.push(() => emu.events.off('run.exported', onExported));
  return () => {
    for (const s of stops.reverse()) s();
  };
}
