// Type guards for values read from JSON (API answers, files): a leaf module every layer may import.

/** A JSON object as read (an API answer, a file): what isRecord narrows a value to. */
export type Rec = Record<string, unknown>;

/** A JSON object (not null, not an array): the one test every module uses for "is this a record". */
export function isRecord(value: unknown): value is Rec {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** What a JSON value is, in words for an error ("null", "a list", "an object", "a string"…): never the value itself. */
export function jsonKind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** A string as read, or '' for anything else (a missing or mistyped field shows as empty). */
export function stringOf(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** A finite number, or null: how a count or a time in an answer is read. */
export function finiteNumber(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}
