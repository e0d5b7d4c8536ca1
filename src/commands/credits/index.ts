import { defineNoun } from '../../cli/command.js';
import modules from './modules.js';
import squids from './squids.js';

export default defineNoun({
  name: 'credits',
  summary: 'Show where credits went: per crawler and function, per squid',
  description:
    "The account's credit views. Per run: `sq runs credits <run>`; per run of one squid: `sq squids credits <squid>`; " +
    'the balance: `sq balance`.',
  verbs: [modules, squids],
});
