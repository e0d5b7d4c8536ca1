import { defineNoun } from '../../cli/command.js';
import list from './list.js';
import sync from './sync.js';

export default defineNoun({
  name: 'results',
  summary: 'List and export the results of a squid or a run',
  description:
    'Results are the rows a run scraped. `sq results list --run <run> --all -o file.csv` exports every record of a run; ' +
    'for the server-side CSV of a finished run, see `sq runs download`.',
  verbs: [list, sync],
});
