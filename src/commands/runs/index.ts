import { defineNoun } from '../../cli/command.js';
import list from './list.js';
import get from './get.js';
import start from './start.js';
import watch from './watch.js';
import stats from './stats.js';
import tasks from './tasks.js';
import abort from './abort.js';
import download from './download.js';
import credits from './credits.js';

export default defineNoun({
  name: 'runs',
  summary: 'Start, watch, abort and download runs',
  description:
    'A run executes every task of a squid once. Start one and follow it (`start --wait` or `watch`: exit 6 if it ends in error or ' +
    'aborted, 7 on --timeout), inspect its progress and tasks, stop it, and download its CSV export once export_done is true.',
  verbs: [list, get, start, watch, stats, credits, tasks, abort, download],
});
