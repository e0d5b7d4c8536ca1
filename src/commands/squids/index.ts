import { defineNoun } from '../../command.js';

export default defineNoun({
  name: 'squids',
  summary: 'squids',
  verbs: [],
});
