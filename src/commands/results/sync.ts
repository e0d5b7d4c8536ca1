import { defineVerb } from '../../cli/command.js';
import { runSync } from '../../sync/command.js';

export default defineVerb({
  name: 'sync',
  summary: "Keep a database table in step with a squid's results (SQLite or Postgres)",
  description:
    'Writes the results of every done run of a squid (or of one --run) into a table: --to sqlite:PATH (a file, no ' +
    "server) or --to postgres://USER@HOST:PORT/DB. The table (default: the squid's name, lower case, _ for other " +
    "characters) is made from the crawler's result attributes with typed columns (text, integer, real, boolean, " +
    'timestamp, JSON for nested values), plus sq_result_id (the primary key unless --key), sq_run_id, sq_squid_id and ' +
    'sq_synced_at. A column the crawler adds later is added (ALTER TABLE ADD COLUMN); none is ever dropped or retyped, ' +
    'and a column of another type is exit 2 naming it, before any write.\n\n' +
    'Incremental and idempotent: each done run is synced once (sq_sync_runs in the same database records it), so a ' +
    'second sync inserts nothing. --key FIELD (repeatable) makes FIELD the primary key: a place scraped again by a ' +
    'later run updates its row (counted "updated" when its data changed, else "unchanged"). Results are read page by ' +
    "page at the API's pace (one request per 550 ms on /v1/results), and each page is written in one transaction " +
    "with the run's cursor: a sync killed at any point and run again continues after the last whole page, and the " +
    'table ends as one uninterrupted sync would have left it. --follow, passwords, -f FILE, --dry-run and the ' +
    'database drivers: sq help sync.',
  options: [
    {
      flags: '--squid <squid>',
      description: 'the squid whose done runs to sync (id, id prefix or exact name)',
      complete: 'squid',
    },
    { flags: '--run <run>', description: 'sync this one done run only (id or id prefix)', complete: 'run' },
    {
      flags: '--to <url>',
      description: 'the database: sqlite:PATH, postgres://USER@HOST[:PORT]/DB (or postgresql://)',
    },
    { flags: '--table <name>', description: "the table (an identifier; default: from the squid's name)" },
    {
      flags: '--key <field>',
      description: 'a result attribute that identifies a row across runs (repeatable): upsert on it',
      repeatable: true,
    },
    { flags: '--follow', description: 'keep syncing new done runs until interrupted' },
    {
      flags: '--interval <duration>',
      description: 'with --follow: how often to look for new runs, at least 5s, at most 7d',
      defaultText: '30s',
    },
    {
      flags: '-f, --file <file>',
      description:
        "sync every squid of this account file that has a sync: block (sq apply's file; with --squid, that one)",
      complete: 'file',
    },
    {
      flags: '--from-webhook <port>',
      description:
        'with --follow: also sync at once on run.done events received on this local port, 0-65535 (0: any free one)',
    },
  ],
  writes: true,
  examples: [
    'sq results sync --squid "Paris restaurants" --to sqlite:places.db',
    'sq results sync --squid "Paris restaurants" --to postgres://me@localhost/crm --table places --key place_id',
    'PGPASSWORD=… sq results sync --squid "Paris restaurants" --to postgres://me@db.internal/crm --follow',
    'sq results sync --squid "Paris restaurants" --to sqlite:places.db --dry-run',
    'sq results sync -f sq.yaml',
  ],
  run: (ctx, _args, opts) => runSync(ctx, opts),
});
