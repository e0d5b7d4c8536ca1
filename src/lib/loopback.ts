// Which hosts plain http:// may reach: read by the API client (run result links), by --base-url checks, and by
// sq mcp --http (the origins it accepts, and its warning off loopback).
import { allIn } from './ascii.js';

/** 127.0.0.0/8, ::1 and localhost: the only hosts plain http:// may reach without --insecure-http. String operations,
 * not regular expressions: every call checks its base URL. */
export function isLoopbackHost(hostname: string): boolean {
  // An IPv6 literal's brackets (a leading "[" and a trailing "]", each on its own).
  let h = hostname.startsWith('[') ? hostname.slice(1) : hostname;
  if (h.endsWith(']')) h = h.slice(0, -1);
  h = h.toLowerCase();
  if (h === 'localhost' || h === '::1') return true;
  // 127.N.N.N: four dot-separated parts, the first 127, the others ASCII digits.
  const parts = h.split('.');
  return parts.length === 4 && parts[0] === '127' && digits(parts[1]) && digits(parts[2]) && digits(parts[3]);
}

/** One or more ASCII digits, nothing else. */
function digits(s: string): boolean {
  return allIn(s, 0x30, 0x39);
}
