/** An environment variable read as a switch: unset, empty, 0 and false (any case) are off. */
export function envFlag(v: string | undefined): boolean {
  return v !== undefined && v !== '' && v !== '0' && v.toLowerCase() !== 'false';
}
