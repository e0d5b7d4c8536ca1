// The parts of the MCP SDK (@modelcontextprotocol/sdk) and of zod that `sq mcp` uses, as one module: package.json
// maps `#mcp-sdk` to it, and the package build bundles it into dist/vendor/mcp-sdk.mjs (esbuild.config.mjs,
// VENDORED), so only `sq mcp` loads the SDK (importPackage('#mcp-sdk')) and installing sq fetches none of it. One
// module also means one copy of zod for the SDK and for the tools' schemas.
import {
  array,
  boolean,
  enum as enumOf,
  looseObject,
  null as nullOf,
  number,
  object,
  record,
  strictObject,
  string,
  union,
  unknown,
} from 'zod';

export { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
// --http's transport is in sdk-http.ts, a file of its own: evaluating it (with @hono/node-server) makes Node load its
// own undici and zlib, which a stdio server never uses.
// stdio: sq reads the lines itself (capped, linear in the line's length) and checks each message with the SDK's schema.
export { JSONRPCMessageSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
// The server's JSON Schema validator, which it makes at start unless given one (register.ts gives one made on first use).
export { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';

/**
 * The zod builders the tools' schemas use. Not zod's whole `z`: that namespace holds every part of zod (its ~40
 * error-message locales included), which the bundle would then keep and load on every start.
 */
export const z = {
  array,
  boolean,
  enum: enumOf,
  looseObject,
  null: nullOf,
  number,
  object,
  record,
  strictObject,
  string,
  union,
  unknown,
};
