import { defineNoun } from '../../command.js';

export default defineNoun({
  name: 'delivery',
  summary: 'delivery',
  verbs: [],
});
