// Which hosts plain http:// may reach: read by the API client (run result links), by --base-url checks, and by
// sq mcp --http (the origins it accepts, and its warning off loopback).

/** 127.0.0.0/8, ::1 and localhost: the only hosts plain http:// may reach without --insecure-http. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h);
}
