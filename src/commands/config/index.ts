import { defineNoun } from '../../cli/command.js';
import get from './get.js';
import set from './set.js';
import unset from './unset.js';
import list from './list.js';

export default defineNoun({
  name: 'config',
  summary: 'Get and set settings of a profile (spending caps and confirmations)',
  description:
    'Settings are kept per profile in the profile file, as `gh config` keeps them per host: --profile or SQ_PROFILE picks ' +
    'the profile, else the active one. An environment variable of a key overrides the stored value (SQ_MAX_CREDITS for ' +
    'max-credits), for scripts and CI.',
  verbs: [get, set, unset, list],
});
