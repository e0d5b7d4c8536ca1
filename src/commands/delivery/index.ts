import { defineNoun } from '../../cli/command.js';
import sftp from './sftp.js';
import webhook from './webhook.js';
import email from './email.js';
import sheet from './sheet.js';
import s3 from './s3.js';
import test from './test.js';
import show from './show.js';
import apply from './apply.js';

export default defineNoun({
  name: 'delivery',
  summary: 'Configure where results go: SFTP, webhooks, e-mail, sheets, S3; apply from a file',
  description:
    'Per-squid delivery of run results and run events (POST /v1/delivery?squid=<hash>). Each verb configures one ' +
    'channel and replaces its whole configuration; `show` reads it back from the squid record; `apply` sets many ' +
    'squids from a YAML/JSON file and sends only what changed. Secrets (SFTP password, S3 keys) are read from stdin ' +
    'or environment variables, never from the command line, and masked in output unless --show-secrets.',
  verbs: [sftp, webhook, email, sheet, s3, test, show, apply],
});
