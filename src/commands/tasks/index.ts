import { defineNoun } from '../../command.js';

export default defineNoun({
  name: 'tasks',
  summary: 'tasks',
  verbs: [],
});
