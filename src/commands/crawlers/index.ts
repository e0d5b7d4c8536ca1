import { defineNoun } from '../../cli/command.js';
import list from './list.js';
import get from './get.js';
import params from './params.js';
import attributes from './attributes.js';

export default defineNoun({
  name: 'crawlers',
  summary: 'Browse crawlers: what they take as input and what they return',
  description: 'A crawler is the scraper a squid runs. Refer to one by id, unique id prefix, exact name or slug.',
  verbs: [list, get, params, attributes],
});
