import { defineNoun } from '../../cli/command.js';
import start from './start.js';

export default defineNoun({
  name: 'emulator',
  summary: 'Run the local emulator of the whole API',
  description:
    'A local, stateful server of the whole API (squids, tasks, runs that progress, results, accounts, delivery with real ' +
    'webhooks and SFTP uploads, Auto Billing Reset), for trying sq without an account, for tests, and for rehearsing ' +
    'CI delivery changes. Control plane under /_emulator/ (clock, faults, request log, outbox, deliveries).',
  verbs: [start],
});
