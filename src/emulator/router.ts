// A tiny router: literal and `:param` segments; the most literal match wins so `/v1/accounts/types`
// beats `/v1/accounts/:hash` whatever the registration order. Re-registering a pattern replaces it.
import type { Handler } from './types.js';

interface Route {
  method: string;
  pattern: string;
  segments: string[];
  handler: Handler;
}

interface Match {
  handler: Handler;
  params: Record<string, string>;
  pattern: string;
}

function split(path: string): string[] {
  return path.split('/').filter((s) => s.length > 0);
}

export class Router {
  private routes: Route[] = [];

  add(method: string, pattern: string, handler: Handler): void {
    const m = method.toUpperCase();
    this.routes = this.routes.filter((r) => !(r.method === m && r.pattern === pattern));
    this.routes.push({ method: m, pattern, segments: split(pattern), handler });
  }

  /** Every registered route, as method and pattern, in registration order. */
  list(): { method: string; pattern: string }[] {
    return this.routes.map((r) => ({ method: r.method, pattern: r.pattern }));
  }

  /** Methods some route accepts for this path: a wrong method on a known path is 405, not 404. */
  allowed(path: string): string[] {
    const methods = new Set<string>();
    for (const r of this.routes) if (r.method !== '*' && this.matchOne(r, split(path))) methods.add(r.method);
    return [...methods].sort();
  }

  private matchOne(route: Route, parts: string[]): boolean {
    return (
      route.segments.length === parts.length &&
      route.segments.every((seg, i) => seg.startsWith(':') || seg === parts[i])
    );
  }

  match(method: string, path: string): Match | undefined {
    const parts = split(path);
    let best: { route: Route; params: Record<string, string>; score: string } | undefined;
    for (const route of this.routes) {
      if (route.method !== method.toUpperCase() || route.segments.length !== parts.length) continue;
      const params: Record<string, string> = {};
      let score = '';
      let ok = true;
      for (let i = 0; i < parts.length; i++) {
        const seg = route.segments[i];
        if (seg.startsWith(':')) {
          try {
            params[seg.slice(1)] = decodeURIComponent(parts[i]);
          } catch {
            params[seg.slice(1)] = parts[i];
          }
          score += '0';
        } else if (seg === parts[i]) {
          score += '1';
        } else {
          ok = false;
          break;
        }
      }
      if (ok && (!best || score > best.score)) best = { route, params, score };
    }
    return best && { handler: best.route.handler, params: best.params, pattern: best.route.pattern };
  }
}
