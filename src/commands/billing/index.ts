import { defineNoun } from '../../cli/command.js';
import autoReset from './auto-reset.js';

export default defineNoun({
  name: 'billing',
  summary: 'Show and set the automatic billing reset (re-charges the card on file)',
  description:
    'Billing settings. `auto-reset` renews the plan automatically when credit usage crosses a threshold, charging ' +
    'the card on file each time, at most N times in any rolling 24 hours.',
  verbs: [autoReset],
});
