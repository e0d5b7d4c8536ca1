// `sq go`: the spec; the steps are the engine's (src/run/go.ts).
import { defineVerb } from '../cli/command.js';
import { GO_OPTIONS, go } from '../run/go.js';

export default defineVerb({
  name: 'go',
  summary: 'Scrape in one step: squid, params, tasks, run, wait, export; a rerun picks up where it stopped',
  description:
    'Creates the squid "go <crawler-slug> <hash>" (the hash of the tasks: the same tasks find the same squid) or reuses it, ' +
    'sets its --param values (checked against the crawler\'s parameters first, GET requests only: an unknown key is exit 2 ' +
    'with the closest names, and so is a TASK out of the crawler\'s format, such as a URL of another site, before any ' +
    'write), adds the tasks (those already there are skipped by the API), starts a run ' +
    'unless one of the squid is still in progress (then it is resumed, never a second one), waits for it as `sq runs watch` ' +
    'does, and exports its results with the engine of `sq results list --all`: to -o FILE (written atomically; format from ' +
    '--format or the extension) or stdout. Each step prints one line on stderr. Before each step that starts or changes ' +
    'something, sq records what it is doing beside the file (.FILE.sq-go; for stdout, in the cache directory): interrupted at ' +
    'any point (Ctrl-C: exit 130; SIGTERM: 143; even kill -9), the run goes on, and the same command run again continues the ' +
    'job: it finishes a params step that was cut short, never starts a second run while the recorded one exists, and ' +
    'exports that run whatever state it ended in (a run that ended in error or aborted is exported, then exit 6). ' +
    'The record is removed once the export is whole. --json prints a summary object on stdout instead of the results, ' +
    'so it needs -o FILE.\n\n' +
    'Spending: as `sq runs start`, with a cap (--max-credits, SQ_MAX_CREDITS, `sq config set max-credits N`) the run is ' +
    'estimated once the squid has its tasks, and above the cap nothing is started (exit 9; the squid and its tasks stay, ' +
    'so the estimate can be read again with `sq squids estimate`). On a terminal, a costly run asks y/N first (--yes skips); ' +
    'off a terminal, a run that would set off an Auto Billing Reset (a card charge) needs --yes (exit 9 without it). ' +
    'The estimate line is printed on stderr before every start (-q silences it). ' +
    'A run already recorded or in progress is resumed without a new estimate.',
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
