// An MCP client of the built `sq mcp` over stdio, as an agent host starts it: the SDK's own Client, a clean
// environment (PATH, a temp config dir, no colour) with the emulator's and the caller's variables over it.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { BIN, tempConfigDir } from './cli.js';

export async function connectMcp(args: string[], env: Record<string, string>, name = 'sq-test'): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', ...args],
    env: { PATH: process.env.PATH ?? '', SQ_CONFIG_DIR: tempConfigDir(), NO_COLOR: '1', ...env },
    stderr: 'pipe',
  });
  const client = new Client({ name, version: '1' });
  await client.connect(transport);
  return client;
}
