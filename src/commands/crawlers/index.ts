import { defineNoun } from '../../command.js';

export default defineNoun({
  name: 'crawlers',
  summary: 'crawlers',
  verbs: [],
});
