import { defineNoun } from '../../command.js';

export default defineNoun({
  name: 'webhook',
  summary: 'webhook',
  verbs: [],
});
