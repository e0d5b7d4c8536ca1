import { defineNoun } from '../../cli/command.js';
import list from './list.js';
import get from './get.js';
import types from './types.js';
import sync from './sync.js';
import del from './delete.js';
import update from './update.js';

export default defineNoun({
  name: 'accounts',
  summary: 'Synchronize, list, limit and delete third-party site accounts (the logins some crawlers need)',
  verbs: [list, get, types, sync, update, del],
});
