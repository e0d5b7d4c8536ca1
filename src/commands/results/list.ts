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
    'scraping_time, then the crawler\'s result fields in their documented order (a field a row lacks is an empty cell). ' +
    '-o FILE writes to a temp file renamed into place when complete, so FILE appears whole or not at all; the format ' +
    'comes from --format, else the extension (.csv, .tsv, .json, .ndjson/.jsonl; others: csv). An existing FILE is kept ' +
    'unless --force (exit 2 before any request, as runs download does); only a regular file is replaced (it keeps its ' +
    'mode; a new file is 0600): a device, FIFO, socket, directory or symlink is refused; -o - is stdout. Without --limit, --page or ' +
    '--all, shows the first 100. Requests to /v1/results are paced at one per 550 ms (the service allows 2 per second).\n\n' +
    'Resuming: when an --all -o FILE export in ndjson, csv or tsv fails or is interrupted (Ctrl-C, exit 130) after at ' +
    'least one whole page, the pages written so far stay in .FILE.sq-partial with a checkpoint in .FILE.sq-checkpoint, ' +
    'and stderr shows the command to continue: the same one with --resume. --resume checks that the checkpoint matches ' +
    'the command (scope, --task, format, --fields, page size; else exit 2, before any request), that every field of it is ' +
    'sound and agrees with the partial file (its header, whole records, their count; else exit 2), cuts the partial file back ' +
    'to the end of its last whole page, reads only the pages after it, then renames the file into place and removes the ' +
    'checkpoint. If the squid\'s result count changed meanwhile (a run still adding results), --resume refuses (exit 1) and ' +
    'changes nothing: delete the two hidden files and export again. --resume with no checkpoint is exit 2; a new export ' +
    'while a checkpoint or partial file exists is exit 2 too (resume it, or delete them). Two exports or resumes of one file ' +
    'never run at once: the second is exit 2 naming the first\'s pid (a lock beside the checkpoint). JSON (one array) is not resumable.\n\n' +
    'To stdout, --all --checkpoint CKPT (ndjson, csv, tsv) writes each page in one write and, once it is written whole, ' +
    'records in CKPT the pages and bytes written so far; on success CKPT is removed. A write error (a full disk) or a ' +
    'reader that goes away (| head) is exit 1 and keeps CKPT. After a failure, cut your saved output back to the ' +
    '"bytes" in CKPT (the last page may have been cut mid-write) if it holds at least that many, and append the rest ' +
    'with --resume >> OUT; the CSV/TSV header is not written again. Through a pipe, a reader that stops early (head -c) ' +
    'may have lost the last pages: a shorter output cannot be continued. When stdout is a file, --resume checks it holds ' +
    'exactly CKPT\'s bytes, whole records, no NUL byte, and the header and record count CKPT says (else exit 2); an empty ' +
    'file (> where >> was meant) is refused unless --force. ' +
    '--checkpoint does not go with -o (which keeps its checkpoint beside FILE).',
  options: [
    { flags: '--squid <squid>', description: 'results of every run of this squid (id, id prefix or exact name)', complete: 'squid' },
    { flags: '--run <run>', description: 'results of this run only (id or id prefix)', complete: 'run' },
    { flags: '--task <task>', description: 'only the results of this task (id or id prefix)' },
    ...pagingOptions(DEFAULT_LIMIT),
    { flags: '-o, --output <file>', description: 'write the records to this regular file (atomically) instead of stdout; - is stdout' },
    { flags: '--resume', description: 'continue an interrupted --all export from its last whole page (-o FILE, or --checkpoint)' },
    { flags: '--checkpoint <file>', description: 'with --all to stdout (ndjson, csv, tsv): record the pages written, for --resume' },
    { flags: '--force', description: 'with -o: replace an existing FILE; with --resume --checkpoint: continue into an empty stdout file (only the pages after the checkpoint)' },
  ],
  examples: [
    'sq results list --squid "Paris restaurants" --limit 20',
    'sq results list --run <run> --all --format ndjson -o results.ndjson',
    'sq results list --squid "Paris restaurants" --all -o results.csv',
    'sq results list --squid "Paris restaurants" --all -o results.csv --resume',
    'sq results list --run <run> --all --format ndjson --checkpoint ckpt.json > out.ndjson',
    'n=$(jq .bytes ckpt.json); [ "$(wc -c < out.ndjson)" -ge "$n" ] && truncate -s "$n" out.ndjson && sq results list --run <run> --all --format ndjson --checkpoint ckpt.json --resume >> out.ndjson',
  ],
  run: async (ctx, _args, opts) => {
    await writeResults(ctx, await planOfFlags(ctx, opts, DEFAULT_LIMIT));
  },
});
