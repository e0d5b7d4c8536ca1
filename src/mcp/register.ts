// One MCP server with sq's tools and resources registered (stdio serves one; --http one per session).
import { VERSION } from '../version.js';
import { callTool, errorText, mcpVerbEnv, runVerb, type Shared, type ToolResult } from './calls.js';
import { inputSchema, unknownArgument, type ToolArgs, type ToolDef, type Z } from './tools/kit.js';

const INSTRUCTIONS =
  "sq acts on the user's lobstr.io account: it reads it, and with --allow-writes changes it and SPENDS CREDITS. " +
  'The model: a crawler (what to scrape; find it with crawlers_search, read it with crawlers_get) → a squid (a crawler ' +
  'plus squid-level params; squids_create) → tasks (one per task-level input value, usually a URL; tasks_add) → a run ' +
  '(runs_start, which spends credits). Inputs have a level: task inputs go in tasks, squid inputs in params, and ' +
  'function inputs are paid add-ons billed per row, some ON BY DEFAULT: turn them off in params ' +
  '("functions.NAME": false) unless the user wants them. Before a run call squids_estimate; go and runs_start answer ' +
  "needs_confirmation above the server's credit threshold: ask the user, then call again with confirm: true. " +
  'go does crawler + inputs → squid, tasks, run in one call; give it an idempotency_key so a retry never starts a ' +
  'second run. Waits last at most 50 s: on still_running: true call runs_wait again. Lists return 20 rows: pass ' +
  "next_cursor back as cursor; fields keeps only the columns you need. results_url gives the user's download link. " +
  'Squids take an id, a unique id prefix or an exact name; runs and tasks an id or a unique id prefix. No tool reads ' +
  'local files unless the server runs with --root; plan and apply take the document inline.';

/** A tool's zod schemas and the names of its arguments, as every server registers them. */
interface Schemas {
  z: Z;
  input: ReturnType<typeof inputSchema>;
  output: ReturnType<Z['looseObject']>;
  takes: string[];
}

/**
 * Each tool's schemas, built once for the process (zod schemas are immutable, and the SDK only reads them): --http
 * builds a server for every session, and building the ~40 tools' schemas again for each was most of a session's
 * start (65 sessions took ~1 s of CPU in test/e2e/mcp.test.ts's session cap, profiled 2026-12-02).
 */
const schemaCache = new WeakMap<ToolDef, Schemas>();
function schemas(z: Z, tool: ToolDef): Schemas {
  const kept = schemaCache.get(tool);
  if (kept?.z === z) return kept;
  const shape = tool.output(z);
  const made: Schemas = {
    z,
    // Strict: an argument the tool does not take is refused (additionalProperties: false), never ignored.
    input: inputSchema(z, tool),
    // A write's answer may be its dry run ({dry_run, requests}): its keys are then all optional.
    output: z.looseObject(
      tool.access === 'read' ? shape : Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, v.optional()])),
    ),
    takes: Object.keys(tool.input(z)),
  };
  schemaCache.set(tool, made);
  return made;
}

/** tools/list's answer for each set of served tools (their names, in order), as buildServer keeps it. */
const listCache = new Map<string, { z: Z; answer: unknown }>();

/**
 * The server's validator of JSON Schemas (the SDK's, Ajv with its formats), made on first use: the SDK uses it only
 * for elicitation, which sq never asks for, and every server made its own at start (~3-25 ms of CPU for each `sq mcp`
 * process and each --http session).
 */
function lazyValidator(sdk: Shared['sdk']): InstanceType<Shared['sdk']['AjvJsonSchemaValidator']> {
  let made: InstanceType<Shared['sdk']['AjvJsonSchemaValidator']> | undefined;
  return {
    getValidator: (schema) => (made ??= new sdk.AjvJsonSchemaValidator()).getValidator(schema),
  } as InstanceType<Shared['sdk']['AjvJsonSchemaValidator']>;
}

/** One MCP server (stdio has one; --http one per session), its tools and resources registered. */
export function buildServer(s: Shared) {
  const { ctx, sdk, defs, refused } = s;
  const { McpServer, z } = sdk;
  const server = new McpServer(
    { name: 'sq', title: 'sq: the lobstr account', version: VERSION },
    { instructions: INSTRUCTIONS, jsonSchemaValidator: lazyValidator(sdk) },
  );
  for (const tool of defs) {
    if (refused.has(tool.name)) continue;
    const { input, output } = schemas(z, tool);
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description:
          tool.description +
          (tool.access === 'read' ? '' : ' dry_run: true returns the planned request and sends nothing.'),
        inputSchema: input,
        outputSchema: output,
        // Every tool calls the hosted API (openWorldHint): an answer is data from outside, not the server's own.
        annotations:
          tool.access === 'read'
            ? { title: tool.title, readOnlyHint: true, openWorldHint: true }
            : {
                title: tool.title,
                readOnlyHint: false,
                destructiveHint: !!tool.destructive,
                idempotentHint: !!tool.idempotent,
                openWorldHint: true,
              },
      },
      (args: unknown, extra: { signal: AbortSignal }) =>
        callTool(s, tool, args as ToolArgs, AbortSignal.any([ctx.signal, extra.signal, s.stopCalls.signal])),
    );
  }
  wrapRequestHandlers(server, s);
  // A call of a write tool this server does not serve says how to allow it (the SDK's own text says only "not found").
  const internal = server as unknown as { createToolError(message: string): ToolResult };
  const toolError = internal.createToolError.bind(server);
  internal.createToolError = (message: string) => {
    const name = /Tool (\S+) not found$/.exec(message)?.[1];
    const access = name === undefined ? undefined : refused.get(name);
    if (!access) return toolError(message);
    // Each suggestion is a whole command in its own backticks, so an agent or a user can run it as quoted.
    const how =
      access === 'all'
        ? `\`sq mcp --allow-writes=all\` (every write tool), or \`sq mcp --allow-writes=${name}\` (a list serves exactly the tools it names)`
        : `\`sq mcp --allow-writes\``;
    return toolError(errorText(2, `${name} is a write tool and this server is read-only for it: start it with ${how}`));
  };

  registerResources(server, s);
  return server;
}

/** The squid, run and status resources: each read by its verb with --json. */
/** The SDK's tools/call and tools/list handlers, wrapped: unknown arguments refused by name, tools/list's answer kept. */
function wrapRequestHandlers(server: ReturnType<typeof buildServer>, s: Shared): void {
  const { sdk, defs, refused } = s;
  const { z } = sdk;
  // An unknown argument is a JSON-RPC error (-32602) naming it, before the SDK's own check (whose failure would be a
  // tool result with a generic text).
  const takes = new Map(defs.map((t) => [t.name, schemas(z, t).takes]));
  type Handler = (req: { params?: { name?: unknown; arguments?: unknown } }, extra: unknown) => Promise<unknown>;
  const handlers = (server.server as unknown as { _requestHandlers: Map<string, Handler> })._requestHandlers;
  const call = handlers.get('tools/call');
  if (call) {
    handlers.set('tools/call', (req, extra) => {
      const name = req.params?.name;
      const keys = typeof name === 'string' && !refused.has(name) ? takes.get(name) : undefined;
      const bad = keys && unknownArgument(name as string, keys, req.params?.arguments);
      return bad ? Promise.reject(bad) : call(req, extra);
    });
  }
  // tools/list's answer depends only on which tools are served: the SDK turns every tool's zod schemas into JSON
  // Schema on each call (~10-25 ms of CPU for the ~40 tools), for each --http session's list. The first answer for a
  // set of tools is kept for the process; the SDK writes it out as it is (JSON), never changing it. The request is
  // still checked by the SDK's schema: one it would refuse goes to its handler, which refuses it as before.
  const list = handlers.get('tools/list');
  if (list) {
    const served = defs
      .filter((t) => !refused.has(t.name))
      .map((t) => t.name)
      .join(',');
    handlers.set('tools/list', async (req, extra) => {
      const kept = listCache.get(served);
      if (kept?.z === z && sdk.ListToolsRequestSchema.safeParse(req).success) return kept.answer;
      const answer = await list(req, extra);
      listCache.set(served, { z, answer });
      return answer;
    });
  }
}

function registerResources(server: ReturnType<typeof buildServer>, s: Shared) {
  const { ctx, sdk, opts } = s;
  const { ResourceTemplate } = sdk;
  const json = async (argv: string[], uri: string, signal: AbortSignal) => {
    const r = await runVerb(ctx, argv, undefined, signal, [], { ...ctx.env, ...mcpVerbEnv(opts) });
    if (r.code !== 0) throw new Error(errorText(r.code, r.error?.message ?? r.notes, r.error?.details));
    return { contents: [{ uri, mimeType: 'application/json', text: r.stdout.trim() }] };
  };
  const listed = async (argv: string[], prefix: string, signal: AbortSignal) => {
    const r = await runVerb(ctx, argv, undefined, signal);
    if (r.code !== 0) throw new Error(errorText(r.code, r.error?.message ?? r.notes, r.error?.details));
    const rows = JSON.parse(r.stdout) as Array<Record<string, unknown>>;
    return {
      resources: rows
        .filter((row) => typeof row.id === 'string')
        .map((row) => ({
          uri: `${prefix}${String(row.id)}`,
          name: String(row.name ?? row.squid_name ?? row.id),
          mimeType: 'application/json',
        })),
    };
  };
  const idOf = (v: string | string[]) => (Array.isArray(v) ? v[0] : v);
  // A squid or a run by its id, listed: the newest `limit` of them.
  const byId = (noun: 'squids' | 'runs', title: string, limit: number, description: string) =>
    server.registerResource(
      noun.slice(0, -1),
      new ResourceTemplate(`sq://${noun}/{id}`, {
        list: (extra) => listed([noun, 'list', `--limit=${limit}`], `sq://${noun}/`, extra.signal),
      }),
      { title, description, mimeType: 'application/json' },
      (uri, vars, extra) => json([noun, 'get', '--', decodeURIComponent(idOf(vars.id))], uri.href, extra.signal),
    );
  byId('squids', 'Squid', 100, 'A squid as `sq squids get <id> --json` shows it (id, id prefix or exact name)');
  byId('runs', 'Run', 20, 'A run as `sq runs get <id> --json` shows it; listed: the 20 most recent runs');
  server.registerResource(
    'status',
    'sq://status',
    {
      title: 'Account status',
      description: 'The account at a glance, as `sq status --json`',
      mimeType: 'application/json',
    },
    (uri, extra) => json(['status'], uri.href, extra.signal),
  );
}
