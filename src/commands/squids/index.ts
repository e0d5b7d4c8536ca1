import { defineNoun } from '../../cli/command.js';
import list from './list.js';
import get from './get.js';
import create from './create.js';
import update from './update.js';
import activate from './activate.js';
import deactivate from './deactivate.js';
import empty from './empty.js';
import del from './delete.js';
import credits from './credits.js';
import estimate from './estimate.js';
import chain from './chain/index.js';

export default defineNoun({
  name: 'squids',
  summary: 'Create, configure, empty and delete squids (scraping jobs built on a crawler)',
  description:
    'Refer to a squid by id, unique id prefix (4+ characters) or exact name; every page of the list is searched. Text that ' +
    'is the exact name of one squid and an id prefix of another is ambiguous (exit 2, listing both): pass the full id.',
  verbs: [list, get, create, update, activate, deactivate, empty, del, credits, estimate, chain],
});
