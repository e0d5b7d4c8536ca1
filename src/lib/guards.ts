// Type guards for values read from JSON (API answers, files): a leaf module every layer may import.

/** A JSON object as read (an API answer, a file): what isRecord narrows a value to. */
export type Rec = Record<string, unknown>;

/** A JSON object (not null, not an array): the one test every module uses for "is this a record". */
export function isRecord(value: unknown): value is Rec {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A finite number, or null: how a count or a time in an answer is read. */
export function finiteNumber(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}
