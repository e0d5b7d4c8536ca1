// Parsing what sq prints with --json / --format ndjson.

/** A JSON object as a test reads it: any field, any depth. */
export type J = Record<string, any>;

/** One JSON value per line; blank output is no records. */
export function ndjson<T = J>(text: string): T[] {
  return text.trim() === ''
    ? []
    : text
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as T);
}

/** The JSON object on the last line of stderr: a machine-readable error follows any plain progress lines. */
export function lastJsonLine(stderr: string): J {
  return JSON.parse(stderr.trim().split('\n').pop()!);
}
