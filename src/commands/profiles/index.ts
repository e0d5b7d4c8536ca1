import { defineNoun } from '../../cli/command.js';
import list from './list.js';
import remove from './remove.js';

export default defineNoun({
  name: 'profiles',
  summary: 'List and remove stored profiles',
  description:
    'Profiles are stored in one file (mode 0600, directory 0700) under SQ_CONFIG_DIR or the platform config directory.',
  verbs: [list, remove],
});
