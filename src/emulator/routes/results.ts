// Results (exactly one of squid/run) and the exported CSV file behind the presigned download URL.
import type { EmuCore } from '../emu.js';
import { paginate } from '../pagination.js';
import { errB } from '../util.js';
import { exportFile } from '../exports.js';
import type { ExportFormat } from '../../tables/export-formats.js';
import { fileSignature, fileToken } from '../views.js';
import type { Rec } from './common.js';
import * as store from '../model/store.js';

function s3Error(code: string, message: string): { status: number; raw: string; headers: Record<string, string> } {
  return {
    status: 403,
    raw: `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>\n`,
    headers: { 'Content-Type': 'application/xml' },
  };
}

function withoutTask(row: Rec | undefined): Rec | undefined {
  if (!row) return row;
  const { task: _task, ...rest } = row;
  return rest;
}

export function registerResults(emu: EmuCore): void {
  emu.route('GET', '/v1/results', (req) => {
    const squid = req.query.get('squid');
    const run = req.query.get('run');
    if ((squid === null) === (run === null) || squid === '' || run === '')
      return errB(400, "You must provide either 'squid' or 'run' parameter, not both or neither", 'squid,run');
    let ids: readonly string[];
    if (squid !== null) {
      if (!store.record(emu, 'squids', squid)) return errB(404, 'Squid not found.', 'squid');
      ids = emu.resultIdsOfSquid(squid);
    } else {
      if (!store.record(emu, 'runs', run as string)) return errB(404, 'Run not found', 'run');
      ids = emu.resultIdsOfRun(run as string);
    }
    const task = req.query.get('task');
    if (task) ids = ids.filter((id) => store.record(emu, 'results', id)?.task === task);
    // The get-results sample's rows have no `task`; the emulator keeps it only to filter by ?task= and feed chains.
    return paginate(req, ids, (id) => withoutTask(store.record(emu, 'results', id)), {
      freePlan: emu.config.freePlan,
      style: 'errB',
      limitAlias: 'page_size',
    });
  });

  // Served without the Authorization header, like a presigned S3 URL.
  emu.route('GET', '/_emulator/files/:name', (req) => {
    const m = /^([0-9a-f]+)\.(csv|xlsx|json|jsonl)$/.exec(req.params.name);
    if (!m) return { status: 404, raw: 'NoSuchKey', headers: { 'Content-Type': 'text/plain' } };
    const token = m[1];
    const expires = Number(req.query.get('Expires'));
    const sig = req.query.get('Signature') ?? '';
    if (!Number.isFinite(expires) || sig !== fileSignature(token, expires, store.token(emu)))
      return s3Error('AccessDenied', 'Request signature does not match.');
    if (expires * 1000 < emu.clock.now()) return s3Error('AccessDenied', 'Request has expired');
    const run = store.records(emu, 'runs').find((r) => fileToken(String(r.id)) === token);
    if (!run) return { status: 404, raw: 'NoSuchKey', headers: { 'Content-Type': 'text/plain' } };
    return exportFile(emu, run, m[2] as ExportFormat, req.query);
  });
}
