// The transport's body.text(): the bytes of a body that arrives in pieces, split inside a character or holding bytes
// that are no UTF-8, decode to the text Node's StringDecoder gives piece by piece (what res.setEncoding('utf8') gave).
import { createServer, type Server } from 'node:http';
import { StringDecoder } from 'node:string_decoder';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadTransport } from '../../src/api/transport.js';

// "é" split after its first byte, "€" after its second, a lone continuation byte, a truncated sequence at the end.
const PIECES = [
  Buffer.from('{"name":"caf'),
  Buffer.from([0xc3]),
  Buffer.from([0xa9, 0x20, 0xe2, 0x82]),
  Buffer.from([0xac, 0x80, 0x22, 0x7d, 0xe2, 0x82]),
];

let server: Server;
let origin: string;
beforeAll(async () => {
  server = createServer(async (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    for (const p of PIECES) {
      res.write(p);
      await new Promise((r) => setTimeout(r, 5));
    }
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const a = server.address();
  origin = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

it('a body in pieces decodes as a StringDecoder decodes it, piece by piece', async () => {
  const { Agent, request } = await loadTransport();
  const agent = new Agent({});
  const res = await request.call(agent, { origin, path: '/', method: 'GET', headers: {} });
  const text = await (res.body as unknown as { text(): Promise<string> }).text();
  const decoder = new StringDecoder('utf8');
  const expected = PIECES.map((p) => decoder.write(p)).join('') + decoder.end();
  expect(text).toBe(expected);
  expect(text).toBe('{"name":"café €\ufffd"}\ufffd');
  await agent.close();
});
