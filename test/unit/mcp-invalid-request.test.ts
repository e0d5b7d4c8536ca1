// Which lines `sq mcp` answers itself with -32600 and the line's own id (the rest go to the SDK's transport).
import { describe, expect, it } from 'vitest';
import { invalidRequestId } from '../../src/mcp/stdio.js';

describe('invalidRequestId', () => {
  it('is the id of JSON with an id that is not a JSON-RPC 2.0 message', () => {
    expect(invalidRequestId('{"jsonrpc":"2.0","id":7}')).toBe(7);
    expect(invalidRequestId('{"id":"a","method":"tools/list"}')).toBe('a');
    expect(invalidRequestId('{"jsonrpc":"1.0","id":0,"method":"ping"}')).toBe(0);
  });
  it('leaves valid messages, lines without a usable id and non-JSON to the transport', () => {
    expect(invalidRequestId('{"jsonrpc":"2.0","id":1,"method":"ping"}')).toBeUndefined();
    expect(invalidRequestId('{"jsonrpc":"2.0","id":1,"result":{}}')).toBeUndefined();
    expect(invalidRequestId('{"jsonrpc":"2.0","method":"notifications/initialized"}')).toBeUndefined();
    expect(invalidRequestId('{"hello":"world"}')).toBeUndefined();
    expect(invalidRequestId('{"id":1.5}')).toBeUndefined();
    expect(invalidRequestId('[{"id":1}]')).toBeUndefined();
    expect(invalidRequestId('not json')).toBeUndefined();
  });
});
