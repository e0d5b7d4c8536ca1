import { defineVerb } from '../../command.js';
import { uploadStatus } from '../../api/tasks.js';
import { nonEmpty } from '../../validate/index.js';
import { UPLOAD_COLUMNS } from './_shared/columns.js';

export default defineVerb({
  name: 'upload-status',
  summary: 'Show the state of a task upload (GET /v1/tasks/upload/{id})',
  description: 'States: PENDING, PROGRESS, SUCCESS, FAILURE; the counters appear once it is done.',
  args: ['<id>'],
  examples: ['sq tasks upload-status 5f0c2a9e-upload', 'sq tasks upload-status 5f0c2a9e-upload --json'],
  async run(ctx, [ref]) {
    const id = nonEmpty('<id>', ref).trim();
    const http = await ctx.http();
    const s = await uploadStatus(http, id);
    await ctx.out.record(s, { title: 'Upload', columns: UPLOAD_COLUMNS });
  },
});
