// A real SFTP server for the delivery tests, from npm (ssh2's Server): password login, a fresh temp directory as
// its root, a random loopback port, in the test process. Nothing on the machine changes and nothing but Node is
// needed. Paths are the machine's own (so a test may also look at the files directly), but only those inside the
// root are served: anything else is "permission denied", as a chrooted server would answer.
import { randomBytes } from 'node:crypto';
import { promises as fs, type Stats } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import ssh2 from 'ssh2';
import type { Connection, SFTPWrapper } from 'ssh2';
import { tempDir } from './fs.js';
import type { SftpTarget } from './sshd.js';

const { Server, utils } = ssh2;
const { STATUS_CODE, OPEN_MODE } = utils.sftp;

export interface SftpServer extends SftpTarget {
  /** The temp directory the server serves; `directory` is an empty "upload" directory inside it. */
  root: string;
  close(): Promise<void>;
}

/**
 * An ed25519 host key that ssh2 can read back. ssh2's own generateKeyPairSync strips a public key's leading zero bytes,
 * so about 1 key in 256 is one its parser refuses ("Malformed OpenSSH private key": mscdex/ssh2#1390, #1513): such a
 * key failed a delivery test now and then. One that parses is taken; any other is made again.
 */
function hostKeyPair(): string {
  for (let i = 0; ; i++) {
    const pair = utils.generateKeyPairSync('ed25519');
    if (!(utils.parseKey(pair.private) instanceof Error) && !(utils.parseKey(pair.public) instanceof Error))
      return pair.private;
    if (i === 20) throw new Error('ssh2 made 20 ed25519 keys in a row that it cannot parse');
  }
}

/** Starts a server on 127.0.0.1 with a random port, user and password; `close()` stops it and removes its files. */
export async function startSftpServer(): Promise<SftpServer> {
  const root = tempDir('sq-sftp-root-');
  const directory = join(root, 'upload');
  await fs.mkdir(directory);
  const username = 'sqtest';
  const password = `pw-${randomBytes(8).toString('hex')}`;
  const hostKey = hostKeyPair();
  const clients = new Set<Connection>();

  const server = new Server({ hostKeys: [hostKey] }, (client) => {
    clients.add(client);
    client.on('close', () => clients.delete(client));
    client.on('error', () => undefined);
    client.on('authentication', (ctx) => {
      if (ctx.method === 'password' && ctx.username === username && ctx.password === password) ctx.accept();
      else ctx.reject(['password']);
    });
    client.on('ready', () => {
      client.on('session', (accept) => {
        accept().on('sftp', (acceptSftp) => serveSftp(acceptSftp(), root));
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return {
    host: '127.0.0.1',
    port,
    username,
    password,
    directory,
    root,
    async close() {
      for (const c of clients) c.end();
      await new Promise<void>((r) => server.close(() => r()));
      await fs.rm(root, { recursive: true, force: true });
    },
  };
}

type Handle = { kind: 'file'; file: fs.FileHandle } | { kind: 'dir'; path: string; done: boolean };

/** The SFTP requests ssh2-sftp-client sends for connect, stat, list, get, put, mkdir, rmdir, delete and rename. */
function serveSftp(sftp: SFTPWrapper, root: string): void {
  const handles = new Map<number, Handle>();
  let next = 1;
  const inRoot = (p: string): string | null => {
    const full = resolve('/', p);
    return full === root || full.startsWith(root + sep) ? full : null;
  };
  const newHandle = (h: Handle): Buffer => {
    const b = Buffer.alloc(4);
    b.writeUInt32BE(next);
    handles.set(next++, h);
    return b;
  };
  const handleOf = (b: Buffer): Handle | undefined => (b.length === 4 ? handles.get(b.readUInt32BE(0)) : undefined);
  const fail = (id: number, err: unknown): void => {
    const code = (err as NodeJS.ErrnoException)?.code;
    const status =
      code === 'ENOENT'
        ? STATUS_CODE.NO_SUCH_FILE
        : code === 'EACCES' || code === 'EPERM'
          ? STATUS_CODE.PERMISSION_DENIED
          : STATUS_CODE.FAILURE;
    sftp.status(id, status, String((err as Error)?.message ?? err));
  };
  /** Runs `fn` on a path inside the root; a path outside it is refused. */
  const onPath = (id: number, p: string, fn: (full: string) => Promise<void>): void => {
    const full = inRoot(p);
    if (!full) return void sftp.status(id, STATUS_CODE.PERMISSION_DENIED, 'outside the served directory');
    fn(full).catch((e: unknown) => fail(id, e));
  };
  const attrs = (s: Stats) => ({
    mode: s.mode,
    uid: s.uid,
    gid: s.gid,
    size: s.size,
    atime: Math.floor(s.atimeMs / 1000),
    mtime: Math.floor(s.mtimeMs / 1000),
  });
  const ok = (id: number) => sftp.status(id, STATUS_CODE.OK);

  sftp.on('OPEN', (id, filename, flags) =>
    onPath(id, filename, async (full) => {
      const write = (flags & OPEN_MODE.WRITE) !== 0;
      const mode = !write
        ? 'r'
        : flags & OPEN_MODE.APPEND
          ? 'a'
          : flags & OPEN_MODE.TRUNC || flags & OPEN_MODE.CREAT
            ? flags & OPEN_MODE.EXCL
              ? 'wx'
              : 'w'
            : 'r+';
      sftp.handle(id, newHandle({ kind: 'file', file: await fs.open(full, mode) }));
    }),
  );
  sftp.on('READ', (id, handle, offset, length) => {
    const h = handleOf(handle);
    if (h?.kind !== 'file') return void sftp.status(id, STATUS_CODE.FAILURE, 'bad handle');
    const buf = Buffer.alloc(length);
    h.file.read(buf, 0, length, offset).then(
      ({ bytesRead }) => (bytesRead ? sftp.data(id, buf.subarray(0, bytesRead)) : sftp.status(id, STATUS_CODE.EOF)),
      (e: unknown) => fail(id, e),
    );
  });
  sftp.on('WRITE', (id, handle, offset, data) => {
    const h = handleOf(handle);
    if (h?.kind !== 'file') return void sftp.status(id, STATUS_CODE.FAILURE, 'bad handle');
    h.file.write(data, 0, data.length, offset).then(
      () => ok(id),
      (e: unknown) => fail(id, e),
    );
  });
  sftp.on('FSTAT', (id, handle) => {
    const h = handleOf(handle);
    if (h?.kind !== 'file') return void sftp.status(id, STATUS_CODE.FAILURE, 'bad handle');
    h.file.stat().then(
      (s) => sftp.attrs(id, attrs(s)),
      (e: unknown) => fail(id, e),
    );
  });
  sftp.on('FSETSTAT', (id) => ok(id));
  sftp.on('SETSTAT', (id, p) => onPath(id, p, async () => ok(id)));
  sftp.on('CLOSE', (id, handle) => {
    const h = handleOf(handle);
    if (!h) return void sftp.status(id, STATUS_CODE.FAILURE, 'bad handle');
    handles.delete(handle.readUInt32BE(0));
    (h.kind === 'file' ? h.file.close() : Promise.resolve()).then(
      () => ok(id),
      (e: unknown) => fail(id, e),
    );
  });
  sftp.on('OPENDIR', (id, p) =>
    onPath(id, p, async (full) => {
      if (!(await fs.stat(full)).isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
      sftp.handle(id, newHandle({ kind: 'dir', path: full, done: false }));
    }),
  );
  sftp.on('READDIR', (id, handle) => {
    const h = handleOf(handle);
    if (h?.kind !== 'dir') return void sftp.status(id, STATUS_CODE.FAILURE, 'bad handle');
    if (h.done) return void sftp.status(id, STATUS_CODE.EOF);
    h.done = true;
    (async () => {
      const names = await fs.readdir(h.path);
      const list = await Promise.all(
        names.map(async (filename) => {
          const s = await fs.lstat(join(h.path, filename));
          const type = s.isDirectory() ? 'd' : s.isSymbolicLink() ? 'l' : '-';
          const perm = [6, 3, 0]
            .map((b) => ['r', 'w', 'x'].map((c, i) => ((s.mode >> (b + 2 - i)) & 1 ? c : '-')).join(''))
            .join('');
          return {
            filename,
            longname: `${type}${perm} 1 sqtest sqtest ${s.size} Jan 1 00:00 ${filename}`,
            attrs: attrs(s),
          };
        }),
      );
      if (!list.length) return void sftp.status(id, STATUS_CODE.EOF);
      sftp.name(id, list);
    })().catch((e: unknown) => fail(id, e));
  });
  for (const ev of ['STAT', 'LSTAT'] as const) {
    sftp.on(ev, (id: number, p: string) =>
      onPath(id, p, async (full) => void sftp.attrs(id, attrs(await (ev === 'STAT' ? fs.stat(full) : fs.lstat(full))))),
    );
  }
  sftp.on('REMOVE', (id, p) => onPath(id, p, async (full) => (await fs.unlink(full), ok(id))));
  sftp.on('RMDIR', (id, p) => onPath(id, p, async (full) => (await fs.rmdir(full), ok(id))));
  sftp.on('MKDIR', (id, p) => onPath(id, p, async (full) => (await fs.mkdir(full), ok(id))));
  sftp.on('RENAME', (id, from, to) =>
    onPath(id, from, async (a) => {
      const b = inRoot(to);
      if (!b) return void sftp.status(id, STATUS_CODE.PERMISSION_DENIED, 'outside the served directory');
      await fs.rename(a, b);
      ok(id);
    }),
  );
  sftp.on('REALPATH', (id, p) => {
    // "." is where a session starts: the root.
    const full = p === '.' || p === '' ? root : resolve(root, p);
    sftp.name(id, [{ filename: full, longname: full, attrs: {} as never }]);
  });
}
