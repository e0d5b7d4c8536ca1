// `sq go`: the spec; the steps are the engine's (src/run/go.ts).
import { defineVerb } from '../cli/command.js';
import { GO_OPTIONS, go } from '../run/go.js';

export default defineVerb({
  name: 'go',
  summary: 'Scrape in one step: squid, params, tasks, run, wait, export; a rerun picks up where it stopped',
  description:
    'Creates the squid "go <crawler-slug> <hash>" (the same tasks find the same squid) or reuses it, sets its --param ' +
    'values, adds the tasks (those already there are skipped), starts a run unless one of the squid is in progress (then ' +
    'it is resumed, never a second one), waits for it as `sq runs watch` does, and exports its results as `sq results ' +
    'list --all` does: to -o FILE (format from --format or the extension) or stdout. Every --param ' +
    'key and TASK is checked against the crawler first (GET requests only: exit 2 with the closest names). Each step ' +
    'prints one line on stderr. Interrupted at any point, the run goes on and the same command run again continues the ' +
    'job; a run that ended in error or aborted is exported, then exit 6. --json prints a summary object on stdout ' +
    'instead of the results, so it needs -o FILE.\n\n' +
    'More: sq help spending (the estimate, --max-credits and the y/N), sq help resume (a rerun after an interruption).',
  args: ['<crawler>', '<tasks...>'],
  options: GO_OPTIONS,
  examples: [
    'sq go google-maps-search-export "https://www.google.com/maps/search/pizza+paris" -o pizza.csv',
    'sq go google-maps-search-export "https://www.google.com/maps/search/pizza+paris" --max-credits 200 -o pizza.csv',
    'sq go google-maps-search-export --key category sushi ramen -p max_results=50 -p ratings=4.0+ -o food.ndjson',
    'sq go amazon-products "https://www.amazon.com/s?k=headphones" --json -o headphones.csv',
  ],
  run: (ctx, [crawler, ...tasks], opts) => go(ctx, crawler, tasks, opts),
});
