// The answers a stdio `sq mcp` gives to `initialize` and `tools/list` before the MCP SDK has loaded: an agent host
// sends both as soon as it spawns the server, and loading the SDK (its code, zod, the tools' schemas) took most of the
// first answer's time. The build writes them from the SDK's own answers (scripts/mcp-first-answers.mjs); the transport
// (stdio.ts) answers from them, then hands every message, these two included, to the SDK once it is there, and drops
// the SDK's second answer to each. A missing or unreadable file, or SQ_MCP_FIRST_ANSWERS=0, leaves it all to the SDK.
import { distFile } from '../import-package.js';

interface FirstDoc {
  latest: string;
  supported: string[];
  initialize: Record<string, unknown>;
  tools: Array<{ name: string } & Record<string, unknown>>;
}

export interface FirstAnswers {
  /** The result of `initialize` for the protocol version the client asked for. */
  initialize(requested: unknown): Record<string, unknown>;
  /** The result of `tools/list`: the tools this server serves, in the SDK's order. */
  toolsList(): Record<string, unknown>;
  /** With --verbose: says when an answer came from here. */
  trace?: (message: string) => void;
}

/** The build's answers, without the tools `refused` names; null where there are none to give. */
export function firstAnswers(
  refused: ReadonlyMap<string, unknown>,
  env: Record<string, string | undefined>,
  trace?: (message: string) => void,
): FirstAnswers | null {
  if (env.SQ_MCP_FIRST_ANSWERS === '0') return null;
  let doc: FirstDoc;
  try {
    const fs = process.getBuiltinModule('node:fs');
    doc = JSON.parse(fs.readFileSync(new URL(distFile('mcp-first.json')), 'utf8')) as FirstDoc;
  } catch {
    return null;
  }
  if (!Array.isArray(doc?.tools) || !Array.isArray(doc.supported) || typeof doc.latest !== 'string') return null;
  return {
    initialize: (requested) => ({
      protocolVersion: typeof requested === 'string' && doc.supported.includes(requested) ? requested : doc.latest,
      ...doc.initialize,
    }),
    toolsList: () => ({ tools: doc.tools.filter((t) => !refused.has(t.name)) }),
    trace,
  };
}
