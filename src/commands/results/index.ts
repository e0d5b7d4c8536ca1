import { defineNoun } from '../../command.js';

export default defineNoun({
  name: 'results',
  summary: 'results',
  verbs: [],
});
