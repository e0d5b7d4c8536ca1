import { defineNoun } from '../../command.js';

export default defineNoun({
  name: 'accounts',
  summary: 'accounts',
  verbs: [],
});
