// Ctx: everything a command may touch. Commands never reach for process, conf, undici, ora or prompts directly,
// so tests can run the whole CLI in-process with captured streams, a temp config dir and the emulator's URL.
import type { Output, OutputSettings } from '../output/types.js';
import type { HttpClient } from '../api/http.js';
import type { Page } from '../api/records.js';
import type { ProfileStore } from '../config/store.js';

export interface Prompter {
  /** Ask yes/no. `flag` names what a script should pass instead (e.g. "--yes"). */
  confirm(message: string, opts: { default?: boolean; flag: string }): Promise<boolean>;
  /** Hidden input. */
  password(message: string, opts: { flag: string }): Promise<string>;
  /** One of `choices` (its value); `flag` names what a script passes instead. */
  select(message: string, opts: { choices: { name: string; value: string }[]; flag: string }): Promise<string>;
}

export interface IO {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  stdinIsTTY: boolean;
  columns: number;
}

export interface Globals {
  profile?: string;
  baseUrl?: string;
  json: boolean;
  format?: string;
  fields?: string;
  /** --jq EXPR / --template TMPL (imply JSON output). */
  jq?: string;
  template?: string;
  color: boolean;
  quiet: boolean;
  verbose: boolean;
  yes: boolean;
  input: boolean;
  dryRun: boolean;
  showSecrets: boolean;
  /** --full-ids: whole ids in terminal tables. */
  fullIds: boolean;
  /** --absolute-times: local times with their offset in terminal tables. */
  absoluteTimes: boolean;
  /** --wide: terminal tables show every column whole. */
  wide: boolean;
  /** --csv-safe (or SQ_CSV_SAFE=1): formula-looking CSV/TSV cells get a leading '. */
  csvSafe: boolean;
  /** --insecure-http: plain http:// to a non-loopback base URL is allowed. */
  insecureHttp: boolean;
}

export interface Ctx {
  io: IO;
  env: Record<string, string | undefined>;
  globals: Globals;
  /** What the command asked to exit with (commander's actions cannot return it). */
  exitCode: number;
  /** Output rendering; built on first use from globals and the terminal. */
  readonly out: Output;
  outputSettings(): OutputSettings;
  /** The profile store; a corrupt profile file is a UsageError unless `allowCorrupt` (auth login replaces it). */
  config(opts?: { allowCorrupt?: boolean }): Promise<ProfileStore>;
  /**
   * The HTTP client for the resolved profile and base URL (an AuthError when there is no key). `auth: false` for calls
   * that need no key; `token` to try a key that is not stored yet (auth login).
   */
  http(opts?: { auth?: boolean; token?: string }): Promise<HttpClient>;
  prompter(): Promise<Prompter>;
  /** Aborted on Ctrl-C. */
  signal: AbortSignal;
  /**
   * Runs another sq command line in this process, as main.ts's run() does (set by main.ts): `sq mcp` runs a verb per
   * tool call this way. Handed down rather than imported, so no command imports main.ts back.
   */
  runCommand?: (
    argv: string[],
    init: {
      io: IO;
      env: Record<string, string | undefined>;
      now(): number;
      sleep(ms: number): Promise<void>;
      signal: AbortSignal;
      onPage?: (page: Page<unknown>) => void;
    },
  ) => Promise<number>;
  /**
   * Called with each list page's envelope as a list verb reads it (set by whoever runs the verb in-process: `sq mcp`
   * learns from it whether the API says more pages follow, rather than guessing from a page's length).
   */
  onPage?: (page: Page<unknown>) => void;
  now(): number;
  sleep(ms: number): Promise<void>;
  /** Run at the end of the command, success or not (close pools, remove temp files). */
  onCleanup(fn: () => void | Promise<void>): void;
  /**
   * Secret strings in play (the API key, a password read from stdin or the environment). Every stderr message and
   * error is scrubbed of them, as a last line of defence behind masking by field name.
   */
  addSecret(value: string | undefined | null): void;
  secrets(): readonly string[];
  /** Never prompt: --no-input, SQ_NO_INPUT, CI, or no terminal on stdin. */
  canPrompt(): boolean;
}

export const DEFAULT_GLOBALS: Globals = {
  json: false,
  color: true,
  quiet: false,
  verbose: false,
  yes: false,
  input: true,
  dryRun: false,
  showSecrets: false,
  fullIds: false,
  absoluteTimes: false,
  wide: false,
  csvSafe: false,
  insecureHttp: false,
};
