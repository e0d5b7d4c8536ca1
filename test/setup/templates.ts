// Runs before each test file (setupFiles): unit tests read output settings with a --template straight from
// src/output/ (resolveOutputSettings), without the command's preAction (src/program.ts) that loads the template
// parser first, as a call does.
import { loadTemplates } from '../../src/output/settings.js';

await loadTemplates();
