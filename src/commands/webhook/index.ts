import { defineNoun } from '../../cli/command.js';
import listen from './listen.js';

export default defineNoun({
  name: 'webhook',
  summary: 'Receive webhook events locally (listen, validate, forward)',
  description:
    'Tools for the run events the service POSTs to a webhook URL (configure one with `sq delivery webhook`).',
  verbs: [listen],
});
