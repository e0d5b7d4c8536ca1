import { defineNoun } from '../../cli/command.js';
import list from './list.js';
import get from './get.js';
import add from './add.js';
import upload from './upload.js';
import uploadStatus from './upload-status.js';
import del from './delete.js';

export default defineNoun({
  name: 'tasks',
  summary: 'Add, upload, list and delete the tasks (URLs or parameter sets) of a squid',
  description: 'Tasks belong to a squid; --squid takes an id, unique id prefix or exact name.',
  verbs: [list, get, add, upload, uploadStatus, del],
});
