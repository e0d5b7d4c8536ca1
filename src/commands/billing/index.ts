import { defineNoun } from '../../command.js';

export default defineNoun({
  name: 'billing',
  summary: 'billing',
  verbs: [],
});
