// The code of the thread --jq runs in. src/output/jq.ts starts it with eval (a string works the same from src/, dist/
// and the bundle); the build also writes it as dist/jq-worker.cjs, which bin/sq.js starts as a file as soon as it
// sees --jq. CommonJS, no TypeScript: it runs as given, and as a module it must not declare `module` or `exports`.
//
// workerData: { file, source?, cachedData?, makeCache?, wasmPath, waitWasm, ctrl, booted?, maxOutput, maxHeap, warm? }.
// `source` is jq-web's script already patched (src/output/jq-patches.ts; with the launcher, dist/jq.cjs's text, compiled
// from its code cache `cachedData`); without it `file` is (dist/jq.cjs, patched by the build). With waitWasm, jq.wasm
// compiled by bin/sq.js comes as the first message; else it is compiled from wasmPath.
// Messages in: { id, op: 'check' | 'run', expr, json, maxOutput }. Out: { id, chunk } (jq's stdout, as it is written), then
// { id, done, error? }; or { id, cap: 'output' | 'memory', size } after which this thread only waits to be ended.
// ctrl (Int32Array over a SharedArrayBuffer): [0] chunks posted and not yet written by the main thread; at 4 this
// thread waits, so a slow reader slows jq down instead of filling memory.
export const JQ_WORKER_SOURCE = String.raw`'use strict';
const { parentPort, workerData: d } = require('node:worker_threads');
const fs = require('node:fs');
const vm = require('node:vm');
const ctrl = new Int32Array(d.ctrl);
// bin/sq.js waits for this before it sets its V8 flag (see startJqWorker, jq-preload.ts); jq.wasm is compiled once it is set.
if (d.booted) {
  const booted = new Int32Array(d.booted);
  // Not over a 2: bin/sq.js stops waiting after a second and sets its flag anyway.
  Atomics.compareExchange(booted, 0, 0, 1);
  Atomics.notify(booted, 0);
  Atomics.wait(booted, 0, 1, 1000);
}
const CHUNK = 65536;
const buf = new Uint8Array(CHUNK);
let n = 0;
let id = 0;
let sent = 0;
let lastFlush = 0;
// Emscripten prints jq's stderr with console.warn when jq still succeeded (debug, stderr), and an abort with
// console.error: sq shows only its own messages, on the main thread.
console.warn = console.error = console.log = () => undefined;

function flush() {
  if (n === 0) return;
  const chunk = buf.slice(0, n);
  n = 0;
  lastFlush = Date.now();
  Atomics.add(ctrl, 0, 1);
  parentPort.postMessage({ id, chunk }, [chunk.buffer]);
  for (let v; (v = Atomics.load(ctrl, 0)) >= 4; ) Atomics.wait(ctrl, 0, v, 100);
}

function stop(cap, size) {
  flush();
  parentPort.postMessage({ id, cap, size });
  // The main thread ends this thread on that message; jq's state is not to be trusted from here.
  for (;;) Atomics.wait(ctrl, 1, 0);
}

// bin/sq.js compiles jq.wasm while the bundle loads and posts the module ({ op: 'wasm' }); else it is compiled here.
let gotWasm;
const compile = () => WebAssembly.compile(fs.readFileSync(d.wasmPath));
const wasm = d.waitWasm ? new Promise((resolve) => (gotWasm = resolve)) : compile();
const source = d.source ?? fs.readFileSync(d.file, 'latin1');
let maxOutput = d.maxOutput;
// True while jq warms up (below): what it prints then is nobody's output.
let warming = false;
const jqModule = { exports: {} };
const script = new vm.Script('(function (exports, require, module, __filename, __dirname) {' + source + '\n})', { filename: d.file, cachedData: d.cachedData });
script.runInThisContext()(jqModule.exports, require, jqModule, d.file, require('node:path').dirname(d.file));
const ready = jqModule.exports({
  sqWrite(bytes, offset, length) {
    if (warming) return length;
    const over = sent + length > maxOutput;
    const end = offset + (over ? maxOutput - sent : length);
    for (let i = offset; i < end; ) {
      const k = Math.min(end - i, CHUNK - n);
      buf.set(bytes.subarray(i, i + k), n);
      n += k;
      i += k;
      if (n === CHUNK) flush();
    }
    if (over) stop('output', maxOutput);
    sent += length;
    // What jq printed reaches the reader within ~20 ms, even a line at a time.
    if (Date.now() - lastFlush >= 20) flush();
    return length;
  },
  sqGrow(size) {
    if (size > d.maxHeap) stop('memory', d.maxHeap);
  },
  instantiateWasm(imports, done) {
    wasm.then((m) => WebAssembly.instantiate(m, imports)).then(done, (err) => parentPort.postMessage({ id: 0, fatal: String(err && err.message || err) }));
    return {};
  },
});

ready.catch((err) => parentPort.postMessage({ id: 0, fatal: String((err && err.message) || err) }));
// Started by bin/sq.js with warm: while the request is out jq compiles '.' (not the user's expression: jq folds
// constants as it compiles, and a cap reached outside a job would have no job to report it), then runs a fixed filter
// over a small document of every JSON type, so that its code is compiled before the first job instead of during it.
// With makeCache, and no cachedData or one V8 refused, the code cache of jq-web's script once jq has compiled an
// expression goes to bin/sq.js, which writes it after a successful call.
ready.then((lib) => {
  if (d.warm) {
    try {
      lib.raw('', '.', []);
      warming = true;
      lib.raw('{"a":[1,"x",null,true,false,{"b":-2.5e3,"c":"\\u00e9"}],"d":[]}', '.a[], .a, .d | length, .e.f?', ['-r', '-c']);
    } catch {
    } finally {
      warming = false;
      n = 0;
    }
  }
  if (d.makeCache && (!d.cachedData || script.cachedDataRejected)) parentPort.postMessage({ id: 0, jqCache: script.createCachedData() });
}, () => undefined);

parentPort.on('message', async (m) => {
  if (m.op === 'wasm') return gotWasm(m.module || compile());
  const lib = await ready;
  id = m.id;
  maxOutput = m.maxOutput || d.maxOutput;
  sent = 0;
  n = 0;
  lastFlush = Date.now();
  try {
    // A check compiles the expression against no input at all: jq never runs it, so a runaway cannot start here.
    if (m.op === 'check') lib.raw('', m.expr, []);
    else lib.raw(m.json, m.expr, ['-r', '-c']);
    flush();
    parentPort.postMessage({ id, done: true });
  } catch (err) {
    flush();
    const text = String((err && (err.stderr || err.message)) || err || 'jq failed');
    parentPort.postMessage({ id, done: true, error: { exitCode: err && err.exitCode, text } });
  }
});
`;
