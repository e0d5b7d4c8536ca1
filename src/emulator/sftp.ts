// SFTP delivery of run results (spec Events rule 5, Errors rule 3): a real upload to the configured server.
// Every failure (unreachable host, bad login, missing directory) is recorded, never thrown.
import type { Emu, FtpFields } from './types.js';
import { csvDocument } from './csv.js';
import { recordDelivery } from './delivery.js';
import { fileStamp, isRecord } from './util.js';
import { hasPackage, importPackage } from '../import-package.js';
import * as store from './model/store.js';

const SFTP_READY_TIMEOUT_MS = 10_000;

/**
 * ssh2-sftp-client (with ssh2 and its install script) serves only this file, so sq does not install it: it is an
 * optional peer dependency, added by whoever wants the emulator's SFTP delivery.
 */
export const SFTP_PACKAGE = 'ssh2-sftp-client';
export const SFTP_MISSING =
  `SFTP delivery is off: it needs the optional package ${SFTP_PACKAGE}, which is not installed. Add it beside sq: ` +
  `\`npm install --global ${SFTP_PACKAGE}@12\` for a global sq (\`npm install ${SFTP_PACKAGE}@12\` in a project that has sq)`;

/** Whether SFTP delivery can work here (the package is installed), without loading it. */
export function sftpAvailable(): boolean {
  return hasPackage(SFTP_PACKAGE);
}
const LEAD_COLUMNS = ['id', 'squid', 'run', 'scraping_time'];

/** What a connection needs of a squid's ftp_fields. */
type SftpLogin = Omit<FtpFields, 'is_active'>;

/** CSV columns: id, squid, run, scraping_time, then the other keys in first-seen order. */
function csvColumns(rows: Record<string, unknown>[]): string[] {
  const cols = [...LEAD_COLUMNS];
  const seen = new Set(cols);
  for (const row of rows) {
    for (const k of Object.keys(row)) {
      if (!seen.has(k)) {
        seen.add(k);
        cols.push(k);
      }
    }
  }
  return cols;
}

function sanitizeName(name: string): string {
  const s = name.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[_.]+|_+$/g, '');
  return s || 'squid';
}

/** <squid-name-sanitized>_<run-id>_YYYYMMDD_HHMM.csv, time in UTC. */
function resultFileName(squidName: string, runId: string, ms: number): string {
  return `${sanitizeName(squidName)}_${runId}_${fileStamp(ms)}.csv`;
}

function describe(e: unknown, login: SftpLogin): string {
  const err = e as { code?: string; message?: string };
  const msg = String(err.message ?? e).replace(/^[A-Za-z]+: /, '');
  if (err.code === 'ECONNREFUSED') return `cannot reach ${login.host}:${login.port}: connection refused`;
  if (err.code === 'ENOTFOUND' || err.code === 'EAI_AGAIN') return `cannot resolve host ${login.host}`;
  if (err.code === 'ETIMEDOUT' || /timed out/i.test(msg)) return `cannot reach ${login.host}:${login.port}: timed out`;
  if (/authentication/i.test(msg)) return `login refused for user ${login.username}: wrong user name or password`;
  return msg;
}

/**
 * Connects, checks that `directory` exists (it is never created), then runs `work` with the directory.
 * Resolves to an error description, or null on success.
 */
async function withSftp(
  login: SftpLogin,
  work: ((client: import('ssh2-sftp-client'), dir: string) => Promise<void>) | null,
): Promise<string | null> {
  // Loaded on first use: ssh2 is heavy and most emulator sessions never deliver over SFTP.
  if (!sftpAvailable()) return SFTP_MISSING;
  const { default: SftpClient } = await importPackage<{ default: typeof import('ssh2-sftp-client') }>(SFTP_PACKAGE);
  const quiet = (): void => undefined;
  const client = new SftpClient('sq-emulator', { error: quiet, end: quiet, close: quiet });
  try {
    await client.connect({
      host: login.host,
      port: login.port,
      username: login.username,
      password: login.password,
      readyTimeout: SFTP_READY_TIMEOUT_MS,
      tryKeyboard: false,
    });
  } catch (e) {
    await client.end().catch(quiet);
    return describe(e, login);
  }
  try {
    const dir = login.directory.replace(/\/+$/, '') || '/';
    let isDir = false;
    try {
      isDir = (await client.stat(dir)).isDirectory;
    } catch {
      return `directory ${dir} does not exist on ${login.host} (it must exist already; the service does not create it)`;
    }
    if (!isDir) return `${dir} on ${login.host} is not a directory`;
    if (work) await work(client, dir);
    return null;
  } catch (e) {
    return describe(e, login);
  } finally {
    await client.end().catch(quiet);
  }
}

/** The check behind POST /v1/delivery/test-sftp. */
export function testSftp(login: SftpLogin): Promise<string | null> {
  return withSftp(login, null).catch((e: unknown) => String((e as Error)?.message ?? e));
}

export function registerSftp(emu: Emu): () => void {
  let stopped = false;
  const onExported = (run: Record<string, unknown>, rows: Record<string, unknown>[]): void => {
    const squidId = String(run.squid);
    const squid = store.record(emu, 'squids', squidId);
    const f = squid?.ftp_fields;
    if (!isRecord(f) || f.is_active !== true) return;
    const cfg = f as unknown as FtpFields;
    const runId = String(run.id);
    const at = emu.nowIso();
    const fileName = resultFileName(String(squid?.name ?? squidId), runId, emu.clock.now());
    const remote = `${cfg.directory.replace(/\/+$/, '')}/${fileName}`;
    const csv = Buffer.from(csvDocument(csvColumns(rows), rows));
    const target = `sftp://${cfg.username}@${cfg.host}:${cfg.port}${cfg.directory}`;
    void withSftp(cfg, async (client) => {
      await client.put(csv, remote);
    })
      .catch((e: unknown) => String((e as Error)?.message ?? e))
      .then((error) => {
        if (stopped) return;
        recordDelivery(emu, {
          kind: 'sftp',
          squid: squidId,
          run: runId,
          attempt: 1,
          at,
          ok: error === null,
          status_code: null,
          error,
          target,
          path: remote,
        });
      });
  };
  emu.events.on('run.exported', onExported);
  return () => {
    stopped = true;
    emu.events.off('run.exported', onExported);
  };
}
