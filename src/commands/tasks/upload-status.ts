import { defineVerb } from '../../cli/command.js';
import { uploadStatus } from '../../api/tasks.js';
import { nonEmpty } from '../../validate/index.js';
import { UPLOAD_COLUMNS } from './_shared/columns.js';
import { resolveUpload } from './_shared/uploads.js';

export default defineVerb({
  name: 'upload-status',
  summary: 'Show the state of a task upload (GET /v1/tasks/upload/{id})',
  description:
    'States: PENDING, PROGRESS, SUCCESS, FAILURE; the counters appear once it is done. <id> is the full upload id, or a ' +
    'unique prefix (8 characters, as tables show) of one that `sq tasks upload` started from this machine: the API ' +
    'cannot list uploads, so sq remembers the last 50 (per key, in the cache directory, for a day after the latest).',
  args: ['<id>'],
  examples: ['sq tasks upload-status 427a7bfc54cf4ce483d83ba23425164b', 'sq tasks upload-status 427a7bfc --json'],
  async run(ctx, [ref]) {
    const id = nonEmpty('<id>', ref).trim();
    const http = await ctx.http();
    const s = await uploadStatus(http, resolveUpload(ctx, http, id));
    await ctx.out.record(s, { title: 'Upload', columns: UPLOAD_COLUMNS });
  },
});
