import { defineVerb } from '../../cli/command.js';
import { pagingOptions } from '../../cli/paging.js';
import { planOfFlags } from '../../results/plan.js';
import { writeResults } from '../../results/engine.js';

const DEFAULT_LIMIT = 100;

export default defineVerb({
  name: 'list',
  aliases: ['ls', 'export'],
  summary: 'List or export the results of a squid or of one run',
  description:
    'List results (GET /v1/results) of a squid (--squid) or of one run (--run): exactly one of them. --all reads every page ' +
    'and writes each record as it arrives, so memory stays flat for any size. CSV/TSV columns are stable: id, squid, run, ' +
    "scraping_time, then the crawler's result fields in their documented order (a field a row lacks is an empty cell). " +
    '-o FILE writes to a temp file renamed into place when complete, so FILE appears whole or not at all; the format ' +
    'comes from --format, else the extension (.csv, .tsv, .json, .ndjson/.jsonl; others: csv). An existing FILE is kept ' +
    'unless --force (exit 2 before any request, as runs download does); only a regular file is replaced (it keeps its ' +
    'mode; a new file is 0600): a device, FIFO, socket, directory or symlink is refused; -o - is stdout. Without --limit, --page or ' +
    '--all, shows the first 100. Requests to /v1/results are paced at one per 550 ms (the service allows 2 per second). ' +
    'An --all export that stops (-o FILE, or --checkpoint to stdout) continues with --resume: sq help resume.',
  options: [
    {
      flags: '--squid <squid>',
      description: 'results of every run of this squid (id, id prefix or exact name)',
      complete: 'squid',
    },
    { flags: '--run <run>', description: 'results of this run only (id or id prefix)', complete: 'run' },
    { flags: '--task <task>', description: 'only the results of this task (id or id prefix)' },
    ...pagingOptions(DEFAULT_LIMIT),
    {
      flags: '-o, --output <file>',
      description: 'write the records to this regular file (atomically) instead of stdout; - is stdout',
    },
    {
      flags: '--resume',
      description: 'continue an interrupted --all export from its last whole page (-o FILE, or --checkpoint)',
    },
    {
      flags: '--checkpoint <file>',
      description: 'with --all to stdout (ndjson, csv, tsv): record the pages written, for --resume',
    },
    {
      flags: '--force',
      description:
        'with -o: replace an existing FILE; with --resume --checkpoint: continue into an empty stdout file (only the pages after the checkpoint)',
    },
  ],
  examples: [
    'sq results list --squid "Paris restaurants" --limit 20',
    'sq results list --run <run> --all --format ndjson -o results.ndjson',
    'sq results list --squid "Paris restaurants" --all -o results.csv',
    'sq results list --squid "Paris restaurants" --all -o results.csv --resume',
    'sq results list --run <run> --all --format ndjson --checkpoint ckpt.json > out.ndjson',
    'n=$(jq .bytes ckpt.json); [ "$(wc -c < out.ndjson)" -ge "$n" ] && truncate -s "$n" out.ndjson ' +
      '&& sq results list --run <run> --all --format ndjson --checkpoint ckpt.json --resume >> out.ndjson',
  ],
  run: async (ctx, _args, opts) => {
    await writeResults(ctx, await planOfFlags(ctx, opts, DEFAULT_LIMIT));
  },
});
