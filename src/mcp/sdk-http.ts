// `sq mcp --http`: the MCP SDK's Streamable HTTP transport (with @hono/node-server, bundled with it), as one module
// of its own: package.json maps `#mcp-sdk-http` to it and the package build bundles it into dist/vendor/mcp-sdk-http.mjs
// (esbuild.config.mjs, VENDORED). Apart from sdk.ts because evaluating it makes Node load its built-in undici (the
// global Request and Response) and zlib, which `sq mcp` over stdio never needs. It parses messages
// with its own copy of the SDK's schemas and hands the server plain objects.
export { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
