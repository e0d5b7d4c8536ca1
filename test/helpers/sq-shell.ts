// bash scripts whose `sq` runs in this worker: for tests that run a document's shell blocks (docs/*.md, the README)
// to prove the commands work as written, where each `sq` line was a Node process of its own (~0.15-0.4 s of CPU,
// the bundle compiled, a code cache read) for what is the CLI's logic. `SQ_SHELL` (the prelude) defines a bash
// function `sq` that hands its arguments, the shell's working directory and its exported environment to a loopback
// server in the test's process; the server runs the command tree in-process (src/shell/main.ts's run(), as
// test/helpers/cli.ts's sq does, on the real clock) with stdout and stderr streamed back as they are written, stdin
// read from the shell only once the command reads it, and the exit code returned by the function. Pipes, redirections,
// `set -e`, `$?`, background jobs and temporary assignments (`SQ_MAX_CREDITS=200 sq go …`) behave as with the binary;
// a shell that is killed stops the command as SIGTERM would. Only bash builtins (/dev/tcp) and `cat` run per call.
// What is about the process (the launcher, signals to sq itself, code caches, a server stopped by a signal) is for
// the built binary: test/helpers/cli.ts's sqBin and BIN.
import { createServer, type Server, type Socket } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll } from 'vitest';
import { InterruptedError } from '../../src/errors.js';
import { run } from '../../src/shell/main.js';

/**
 * The bash function (fds 5-8 are its own while it runs; portable to bash 3.2: no {var} redirections, no BASHPID).
 * A call: `call` and the request (cwd, argc, args, NAME=value…, NUL-separated, an empty field last) on fd 5, which
 * answers with the call's token first and, once the command ends, `exit N`; stdout and stderr come on connections of
 * their own (fd 6, 7), stdin goes on one (fd 8) only after the server asks for it (`in`).
 */
function prelude(port: number): string {
  const tcp = `/dev/tcp/127.0.0.1/${port}`;
  return `sq() {
  local __t __m __rc=1 __o __e __i=
  exec 5<>${tcp}
  printf 'call\\n' >&5
  IFS= read -r __t <&5
  {
    printf '%s\\0' "$PWD" "$#" "$@"
    for __m in $(compgen -e); do printf '%s=%s\\0' "$__m" "\${!__m-}"; done
    printf '\\0'
  } >&5
  exec 6<>${tcp} 7<>${tcp}
  printf 'out %s\\n' "$__t" >&6
  printf 'err %s\\n' "$__t" >&7
  cat <&6 5>&- 6>&- 7>&- &
  __o=$!
  cat <&7 >&2 5>&- 6>&- 7>&- &
  __e=$!
  exec 6>&- 7>&-
  while IFS= read -r __m <&5; do
    case $__m in
      in)
        exec 8<>${tcp}
        printf 'in %s\\n' "$__t" >&8
        cat <&0 >&8 5>&- 6>&- 7>&- 8>&- &
        __i=$!
        exec 8>&-
        ;;
      exit\\ *)
        __rc=\${__m#exit }
        break
        ;;
    esac
  done
  exec 5>&-
  wait "$__o" "$__e" || :
  if [ -n "$__i" ]; then kill "$__i" 2>/dev/null || :; wait "$__i" 2>/dev/null || :; fi
  return "$__rc"
}
`;
}

interface Call {
  out?: Socket;
  err?: Socket;
  ready: () => void;
  stdin: (s: Socket, first: Buffer) => void;
}

/**
 * The server behind the prelude. Commands run with the shell's cwd as the process's (process.chdir while any call
 * runs: a test file runs alone in its worker, and its calls share one working directory).
 */
export async function startSqShell(): Promise<{ prelude: string; close: () => Promise<void> }> {
  const calls = new Map<string, Call>();
  let next = 0;
  let running = 0;
  const home = process.cwd();
  const server: Server = createServer((socket) => {
    socket.on('error', () => {});
    let head = Buffer.alloc(0);
    const onHead = (d: Buffer) => {
      head = Buffer.concat([head, d]);
      const nl = head.indexOf(10);
      if (nl < 0) return;
      socket.off('data', onHead);
      socket.pause();
      const [kind, token] = head.subarray(0, nl).toString().split(' ');
      const rest = head.subarray(nl + 1);
      if (kind === 'call') return void control(socket, rest);
      const call = calls.get(token);
      if (!call) return void socket.destroy();
      // What the shell's cat sent with the header is the first of its stdin.
      if (kind === 'in') return call.stdin(socket, rest);
      if (kind === 'out') call.out = socket;
      else call.err = socket;
      if (call.out && call.err) call.ready();
    };
    socket.on('data', onHead);
  });

  async function control(socket: Socket, first: Buffer): Promise<void> {
    const token = String(++next);
    // Known before the shell can open its stdout and stderr connections, which may come before the request is read.
    const call: Call = { ready: () => {}, stdin: () => {} };
    const streams = new Promise<void>((ready) => (call.ready = ready));
    calls.set(token, call);
    socket.write(`${token}\n`);
    const fields = await request(socket, first);
    const [cwd, argc, ...more] = fields;
    const args = more.slice(0, Number(argc));
    const env = Object.fromEntries(
      more.slice(Number(argc)).map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
    );
    const stop = new AbortController();
    socket.on('close', () => stop.abort(new InterruptedError('SIGTERM')));
    await streams;
    const stdin = lazyStdin(
      () => socket.write('in\n'),
      (feed) => (call.stdin = feed),
    );
    let code: number;
    try {
      // Inside the try: a working directory removed since makes this call fail (exit 70, said), not every later one.
      if (running++ === 0) process.chdir(cwd);
      code = await run(args, {
        env,
        io: {
          stdout: call.out!,
          stderr: call.err!,
          stdin,
          stdoutIsTTY: false,
          stderrIsTTY: false,
          stdinIsTTY: false,
        },
        signal: stop.signal,
      });
    } catch (e) {
      call.err!.write(`sq (in-process): ${(e as Error).stack ?? e}\n`);
      code = 70;
    } finally {
      if (--running === 0) process.chdir(home);
      calls.delete(token);
    }
    // Ended, and closed by the shell's cat (or gone already: a reader that stopped early, `sq … | head -1`).
    await Promise.all(
      [call.out!, call.err!].map((s) => new Promise<void>((done) => (s.closed ? done() : s.once('close', done).end()))),
    );
    socket.end(`exit ${code}\n`);
  }

  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.address() as { port: number }).port;
  return {
    prelude: prelude(port),
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

/** The NUL-separated fields of a request, up to the empty one that ends it. */
function request(socket: Socket, first: Buffer): Promise<string[]> {
  return new Promise((resolve) => {
    let buf = first;
    const fields: string[] = [];
    const take = (): boolean => {
      for (let i = buf.indexOf(0); i >= 0; i = buf.indexOf(0)) {
        const field = buf.subarray(0, i).toString();
        buf = buf.subarray(i + 1);
        if (field === '' && fields.length >= 2) return true;
        fields.push(field);
      }
      return false;
    };
    const onData = (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      if (take()) {
        socket.off('data', onData);
        resolve(fields);
      }
    };
    socket.on('data', onData);
    socket.resume();
    onData(Buffer.alloc(0));
  });
}

/** sq's stdin: nothing is asked of the shell until the command reads it; then the shell's stdin, to its end. */
function lazyStdin(ask: () => void, onFeed: (feed: (s: Socket, first: Buffer) => void) => void): Readable {
  let asked = false;
  let from: Socket | undefined;
  const stdin = new Readable({
    read() {
      // A later read: the shell's data flows again after a full buffer paused it.
      if (asked) return void from?.resume();
      asked = true;
      onFeed((s, first) => {
        from = s;
        if (first.length > 0) stdin.push(first);
        s.on('data', (d: Buffer) => {
          if (!stdin.push(d)) s.pause();
        });
        s.on('end', () => stdin.push(null));
        s.resume();
      });
      ask();
    },
  });
  return stdin;
}

/** A file's shell server: `shell.prelude` once its beforeAll has run. */
export function useSqShell(): { readonly prelude: string } {
  let started: Awaited<ReturnType<typeof startSqShell>> | undefined;
  beforeAll(async () => {
    started = await startSqShell();
  });
  afterAll(async () => {
    await started?.close();
  });
  return {
    get prelude() {
      if (!started) throw new Error('useSqShell: the prelude is ready in tests, after beforeAll');
      return started.prelude;
    },
  };
}
