import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Writable } from 'node:stream';
import { execa, execaSync } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/fs.js';
import { createOutput, resolveOutputSettings } from '../../src/output/index.js';
import { make } from './helpers.js';
import { Sink, fdWriter, writeAll } from '../../src/output/sink.js';

describe('streaming lists', () => {
  it('a 20,000-item async list in json mode parses as one array of 20,000', async () => {
    async function* gen() {
      for (let i = 0; i < 20_000; i++) {
        if (i % 1000 === 0) await new Promise((r) => setImmediate(r));
        yield { i, token: `t${i}`, nested: { name: `n${i}` } };
      }
    }
    const c = make({ json: true });
    expect(await c.out.list(gen())).toBe(20_000);
    const parsed = JSON.parse(c.stdout()) as Array<{ i: number; token: string; nested: { name: string } }>;
    expect(parsed).toHaveLength(20_000);
    expect(parsed[19_999]).toEqual({ i: 19_999, token: '********', nested: { name: 'n19999' } });
  });

  it('waits for drain instead of buffering when the reader is slow', async () => {
    const pending: Array<() => void> = [];
    const slow = new Writable({
      highWaterMark: 1024,
      write(_chunk, _enc, cb) {
        pending.push(cb);
      },
    });
    const settings = resolveOutputSettings({ format: 'ndjson', env: {}, stdoutIsTTY: false, stderrIsTTY: false });
    const out = createOutput({ stdout: slow, stderr: new Writable({ write: (_c, _e, cb) => cb() }) }, settings);
    const items = Array.from({ length: 1000 }, (_, i) => ({ i, pad: 'x'.repeat(100) }));
    let finished = false;
    const done = out.list(items).then((n) => {
      finished = true;
      return n;
    });
    for (let k = 0; k < 20; k++) await new Promise((r) => setImmediate(r));
    // Paused on a full buffer: far fewer than 1000 lines are queued.
    expect(finished).toBe(false);
    expect(slow.writableLength).toBeLessThan(1024 + 200);
    while (!finished) {
      pending.splice(0).forEach((cb) => cb());
      await new Promise((r) => setImmediate(r));
    }
    expect(await done).toBe(1000);
  });
});

describe('records in memory are written together', () => {
  /** A stream that keeps each write apart. */
  function writes(): { stream: Writable; chunks: string[] } {
    const chunks: string[] = [];
    return { chunks, stream: new Writable({ write: (c, _e, cb) => (chunks.push(String(c)), cb()) }) };
  }
  const output = (stream: Writable, format: string) =>
    createOutput(
      { stdout: stream, stderr: new Writable({ write: (_c, _e, cb) => cb() }) },
      resolveOutputSettings({ format, env: {}, stdoutIsTTY: false, stderrIsTTY: false }),
    );

  it('a list given whole (an array) is one write, in every format of lines', async () => {
    for (const format of ['json', 'ndjson', 'csv', 'tsv']) {
      const w = writes();
      expect(await output(w.stream, format).list([{ id: 1 }, { id: 2 }, { id: 3 }])).toBe(3);
      expect(w.chunks, format).toHaveLength(1);
    }
    const w = writes();
    await output(w.stream, 'json').list([{ id: 1 }, { id: 2 }]);
    expect(JSON.parse(w.chunks.join(''))).toEqual([{ id: 1 }, { id: 2 }]);
  });

  it('a paged list writes each page once it is read, before the next page is asked for', async () => {
    const w = writes();
    const seen = { left: 0 };
    const asked: string[][] = [];
    async function* pages() {
      for (const page of [
        [1, 2, 3],
        [4, 5],
      ]) {
        // "The request for the next page": what is out by then.
        asked.push([...w.chunks]);
        await new Promise((r) => setImmediate(r));
        for (let i = 0; i < page.length; i++) {
          seen.left = page.length - 1 - i;
          yield { id: page[i] };
        }
      }
    }
    expect(await output(w.stream, 'ndjson').list(pages(), { buffered: () => seen.left > 0 })).toBe(5);
    expect(asked[1]).toEqual(['{"id":1}\n{"id":2}\n{"id":3}\n']);
    expect(w.chunks).toEqual(['{"id":1}\n{"id":2}\n{"id":3}\n', '{"id":4}\n{"id":5}\n']);
  });

  it('without the hint, an async list is written record by record, as it comes', async () => {
    const w = writes();
    async function* gen() {
      for (const id of [1, 2, 3]) yield { id };
    }
    await output(w.stream, 'ndjson').list(gen());
    expect(w.chunks).toEqual(['{"id":1}\n', '{"id":2}\n', '{"id":3}\n']);
  });

  it('records rendered before a failure of the source are still written', async () => {
    const w = writes();
    const seen = { left: 0 };
    async function* failing() {
      seen.left = 1;
      yield { id: 1 };
      throw new Error('page 2 failed');
    }
    await expect(output(w.stream, 'ndjson').list(failing(), { buffered: () => seen.left > 0 })).rejects.toThrow(
      'page 2 failed',
    );
    expect(w.chunks.join('')).toBe('{"id":1}\n');
  });
});

describe('stream errors', () => {
  it('surfaces an error other than EPIPE (a full disk) instead of swallowing it', async () => {
    const full = new Writable({
      write(_c, _e, cb) {
        cb(Object.assign(new Error('no space left on device'), { code: 'ENOSPC' }));
      },
    });
    const settings = resolveOutputSettings({ format: 'ndjson', env: {}, stdoutIsTTY: false, stderrIsTTY: false });
    const out = createOutput({ stdout: full, stderr: new Writable({ write: (_c, _e, cb) => cb() }) }, settings);
    async function* gen() {
      for (let i = 0; i < 100; i++) {
        await new Promise((r) => setImmediate(r));
        yield { i };
      }
    }
    await expect(out.list(gen())).rejects.toThrow('no space left on device');
  });
});

describe('stdout to a file or a device (fdWriter)', () => {
  const enospc = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
  /** A write(2) that takes at most `step` bytes a call, and fails once `room` bytes are taken. */
  function disk(step: number, room = Infinity) {
    const got: number[] = [];
    const write = (_fd: number, buf: Uint8Array, off: number, len: number) => {
      if (got.length >= room) throw enospc();
      const n = Math.min(step, len, room - got.length);
      got.push(...buf.subarray(off, off + n));
      return n;
    };
    return { write, text: () => Buffer.from(got).toString() };
  }

  it('writes what a short write left, until all of it is out', () => {
    const d = disk(3);
    writeAll(1, Buffer.from('a page of records\n'), d.write);
    expect(d.text()).toBe('a page of records\n');
  });

  it('a write that fails after a short one reaches the write callback, the stream, and Sink.flush', async () => {
    const d = disk(4, 10);
    const stream = fdWriter(1, 'stdout', d.write);
    const sink = new Sink(stream);
    const err = await new Promise<Error | null | undefined>((resolve) => stream.write('0123456789abcdef', resolve));
    expect(err?.message).toBe('cannot write to stdout: ENOSPC: no space left on device, write');
    expect(d.text()).toBe('0123456789');
    await expect(sink.flush()).rejects.toThrow('cannot write to stdout: ENOSPC');
  });

  it('Sink.flush: the error of a last fire-and-forget write is not lost', async () => {
    const stream = fdWriter(1, 'stdout', disk(100, 0).write);
    const sink = new Sink(stream);
    sink.writeNow('{"id":1}\n');
    await expect(sink.flush()).rejects.toThrow('ENOSPC');
    await new Sink(fdWriter(1, 'stdout', disk(100).write)).flush();
  });
});

describe('EPIPE', () => {
  it('stops quietly when the reading process exits (in-process, real pipe)', async () => {
    const head = spawn('head', ['-n', '2'], { stdio: ['pipe', 'pipe', 'inherit'] });
    const lines: Buffer[] = [];
    head.stdout.on('data', (c: Buffer) => lines.push(c));
    const settings = resolveOutputSettings({ format: 'ndjson', env: {}, stdoutIsTTY: false, stderrIsTTY: false });
    const stderr: string[] = [];
    const out = createOutput(
      { stdout: head.stdin, stderr: new Writable({ write: (c, _e, cb) => (stderr.push(String(c)), cb()) }) },
      settings,
    );
    async function* endless() {
      for (let i = 0; ; i++) {
        if (i % 100 === 0) await new Promise((r) => setImmediate(r));
        yield { i };
      }
    }
    const n = await out.list(endless());
    await once(head, 'close');
    expect(n).toBeGreaterThan(0);
    expect(out.closed).toBe(true);
    expect(Buffer.concat(lines).toString()).toBe('{"i":0}\n{"i":1}\n');
    expect(stderr).toEqual([]);
    // Later output is dropped, not thrown.
    await out.record({ late: true });
    out.text('late');
  });

  // The fixture as a real process: bundled once by esbuild (as the CLI is), its packages imported from the repo's
  // node_modules (linked beside the bundle). Run through vite-node, each of the three runs cost ~0.75 s of CPU.
  let endless = '';
  beforeAll(() => {
    const dir = tempDir('sq-endless-');
    symlinkSync(fileURLToPath(new URL('../../node_modules', import.meta.url)), join(dir, 'node_modules'));
    endless = join(dir, 'endless.mjs');
    const fixture = fileURLToPath(new URL('./fixtures/endless.ts', import.meta.url));
    // esbuild's command, which ends with the build (its JS API keeps a service process that holds the file's temp dir).
    const esbuild = fileURLToPath(new URL('../../node_modules/esbuild/bin/esbuild', import.meta.url));
    execaSync(esbuild, [
      fixture,
      '--bundle',
      '--platform=node',
      '--format=esm',
      '--packages=external',
      `--outfile=${endless}`,
      '--log-level=warning',
    ]);
  });

  it.each(['ndjson', 'json', 'tsv'])(
    '`sq … | head -n 1` exits 0 without a stack trace (%s)',
    async (format) => {
      const script = `"${process.execPath}" "${endless}" ${format} | head -n 1; echo "rc=\${PIPESTATUS[0]}" >&2`;
      const res = await execa('bash', ['-c', script], { reject: false, timeout: 20_000 });
      // The writer's stderr: no stack trace, only the fixture's own closing note, and a clean exit.
      expect(res.stderr).toBe('closed=true\nrc=0');
      expect(res.stdout.split('\n')[0]).toBe(
        format === 'json' ? '[' : format === 'tsv' ? 'i\tname' : '{"i":0,"name":"record 0"}',
      );
    },
    60_000,
  );
});
