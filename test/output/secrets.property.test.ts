import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FORMATS } from '../../src/output/types.js';
import { make } from './helpers.js';
import { pathSecretUrl } from '../helpers/path-secrets.js';
import { maskSecrets, maskUrlAsWritten, maskUrlQuery, shownUrl, urlSecrets } from '../../src/lib/secrets.js';

// Secrets are alphanumeric with a marker so escaping cannot hide a leak and nothing else can match by chance.
const secret = fc.stringMatching(/^[A-Za-z0-9]{4,16}$/).map((s) => `Zq9${s}`);
const secretKey = fc
  .tuple(
    fc.constantFrom('', 'sftp_', 'x-', 'client', 'AWS_', 'my'),
    fc.constantFrom(
      'password',
      'passwd',
      'secret',
      'token',
      'api_key',
      'apikey',
      'aws_secret_key',
      'authorization',
      'cookies',
      'private_key',
    ),
    fc.boolean(),
  )
  .map(([prefix, name, upper]) => prefix + (upper ? name.toUpperCase() : name));
const plainKey = fc.constantFrom('name', 'id', 'host', 'meta', 'items', 'run.done', 'squid');
const plainValue = fc.oneof(fc.integer(), fc.constantFrom('daily', 'ok', ''), fc.boolean(), fc.constant(null));

interface Tree {
  value: Record<string, unknown>;
  secrets: string[];
}

function treeAt(depth: number): fc.Arbitrary<Tree> {
  const child =
    depth === 0 ? fc.constant(null) : fc.oneof(treeAt(depth - 1), fc.array(treeAt(depth - 1), { maxLength: 2 }));
  return fc
    .tuple(
      fc.array(fc.tuple(plainKey, plainValue), { maxLength: 3 }),
      fc.array(fc.tuple(secretKey, secret), { maxLength: 2 }),
      fc.array(fc.tuple(plainKey, child), { maxLength: depth === 0 ? 0 : 2 }),
    )
    .map(([plain, secrets, children]) => {
      const value: Record<string, unknown> = {};
      const found: string[] = [];
      for (const [k, v] of plain) value[k] = v;
      const taken = new Set<string>();
      for (const [k, c] of children) {
        // A repeated key would overwrite a subtree and drop its secrets from the expectation.
        if (c === null || taken.has(k)) continue;
        taken.add(k);
        const kids = Array.isArray(c) ? c : [c];
        value[k] = Array.isArray(c) ? kids.map((t) => t.value) : kids[0].value;
        for (const t of kids) found.push(...t.secrets);
      }
      // Secret keys last: a later plain key of the same name must not overwrite (and so drop) a secret.
      for (const [k, v] of secrets) {
        if (k in value) continue;
        value[k] = v;
        found.push(v);
      }
      return { value, secrets: found };
    });
}
const tree = treeAt(3);

describe('no format leaks a secret', () => {
  it('masks every secret under a secret-named key, in every format, for records and lists', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(tree, { minLength: 1, maxLength: 3 }), async (trees) => {
        const all = trees.flatMap((t) => t.secrets);
        for (const format of FORMATS) {
          const c = make({ format });
          await c.out.record(trees[0].value);
          await c.out.list(trees.map((t) => t.value));
          const shown = c.stdout() + c.stderr();
          for (const s of all) expect(shown).not.toContain(s);
        }
        const shown = make({ format: 'json', showSecrets: true });
        await shown.out.list(trees.map((t) => t.value));
        for (const s of all) expect(shown.stdout()).toContain(s);
      }),
      { numRuns: 200 },
    );
  });
});

describe('URL credentials in the path', () => {
  it('no masking of a path-secret URL keeps its token; urlSecrets names it; each masked copy keeps the rest', () => {
    fc.assert(
      fc.property(pathSecretUrl, fc.constantFrom('', '?token=QUERYSECRET1&x=1'), ({ url, secret }, query) => {
        const full = url + query;
        for (const masked of [maskUrlQuery(full), maskUrlAsWritten(full), maskSecrets({ url: full }, false).url]) {
          expect(masked).not.toContain(secret);
          expect(masked).not.toContain('QUERYSECRET1');
          expect(masked.split('/')[2]).toBe(full.split('/')[2]);
        }
        expect(urlSecrets(full)).toContain(secret);
        expect(shownUrl(full, true)).toBe(full);
      }),
      { numRuns: 500 },
    );
  });
});
