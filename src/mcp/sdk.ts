// The parts of the MCP SDK (@modelcontextprotocol/sdk) and of zod that `sq mcp` uses, as one module: package.json
// maps `#mcp-sdk` to it, and the package build bundles it into dist/vendor/mcp-sdk.mjs (esbuild.config.mjs,
// VENDORED), so only `sq mcp` loads the SDK (importPackage('#mcp-sdk')) and installing sq fetches none of it. One
// module also means one copy of zod for the SDK and for the tools' schemas.
export { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
export { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
export { z } from 'zod';
