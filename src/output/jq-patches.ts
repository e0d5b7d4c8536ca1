// The text patches sq applies to jq-web's script (jq.js), in one place for the build (esbuild.config.mjs writes
// dist/jq.cjs with them) and for src/output/jq.ts, which patches node_modules' copy the same way when dist/jq.cjs is
// not there. Each patch fails loudly if its text is gone, so an upgrade of jq-web cannot silently undo one.
//
// - The script exports its factory instead of starting jq on load (sq hands it the compiled jq.wasm).
// - jq's writes to stdout go to Module.sqWrite whole when given, instead of byte by byte into one array: sq streams
//   them out of the worker and caps them.
// - jq's stderr keeps its first 64 KiB: `repeat(debug)` cannot grow it without bound.
// - Every growth of jq's heap is first shown to Module.sqGrow, which enforces sq's memory cap.
const PATCHES: [from: string, to: string][] = [
  ['jq = jq().then( module => {\n  return { json: module.json, raw: module.raw };\n} );', ''],
  [
    'write(stream, buffer, offset, length, pos) {\n            for (var i = 0; i < length; i++) ' +
      '{\n              try {\n                output(buffer[offset+i]);',
    'write(stream, buffer, offset, length, pos) {\n            if (Module.sqWrite && stream.path ' +
      "=== '/dev/stdout') return Module.sqWrite(buffer, offset, length);\n            for (var i " +
      '= 0; i < length; i++) {\n              try {\n                output(buffer[offset+i]);',
  ],
  ['if (c) errBuffer.push(c)', 'if (c && errBuffer.length < 65536) errBuffer.push(c)'],
  [
    'var _emscripten_resize_heap = (requestedSize) => {',
    'var _emscripten_resize_heap = (requestedSize) => {\n      Module.sqGrow?.(requestedSize >>> 0);',
  ],
];

export function patchJqWeb(text: string, where = 'jq-web/jq.js'): string {
  let out = text;
  for (const [from, to] of PATCHES) {
    if (!out.includes(from))
      throw new Error(
        `${where} no longer contains ${JSON.stringify(from.slice(0, 50))}: review src/output/jq-patches.ts`,
      );
    out = out.replace(from, to);
  }
  return out;
}
