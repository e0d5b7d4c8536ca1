import { defineNoun } from '../../command.js';

export default defineNoun({
  name: 'runs',
  summary: 'runs',
  verbs: [],
});
