import { defineNoun } from '../../cli/command.js';
import login from './login.js';
import logout from './logout.js';
import status from './status.js';
import switchProfile from './switch.js';

export default defineNoun({
  name: 'auth',
  summary: 'Log in, log out and show which key and profile are in use',
  description:
    'Keys are stored per profile (mode 0600) by `sq auth login`; SQ_TOKEN overrides the stored key (for CI). ' +
    'There is no --token flag: keys never go on the command line.',
  verbs: [login, logout, status, switchProfile],
});
