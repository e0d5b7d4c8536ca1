// schema/sq.schema.json: generated from the zod schema the CLI validates with (npm run schema), checked in, and a
// real JSON Schema validator (Ajv, draft 2020-12) accepts the README's and docs/'s example files with it, as an editor would.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { documentSchemaText, DOCUMENT_SCHEMA_FILE, schemaText, SCHEMA_FILE } from '../../src/account/write-schema.js';
import { accountSchema } from '../../src/account/schema.js';
import { parseApplyText } from '../../src/account/delivery-file.js';

const root = resolve(import.meta.dirname, '../..');
const committed = readFileSync(resolve(root, SCHEMA_FILE), 'utf8');
const validate = new Ajv2020({ allErrors: true, strict: false }).compile(JSON.parse(committed));

/**
 * The account files of the README and of docs/account-as-code.md (the full example): YAML blocks that start with the
 * schema line, and the delivery.yaml of "Delivery in CI".
 */
function readmeFiles(): string[] {
  return ['README.md', 'docs/account-as-code.md'].flatMap((f) =>
    [...readFileSync(resolve(root, f), 'utf8').matchAll(/```yaml\n([\s\S]*?)```/g)]
      .map((m) => m[1])
      .filter((b) => /^# (yaml-language-server: \$schema=|delivery\.yaml)/.test(b)),
  );
}

describe('schema/sq.schema.json', () => {
  it('is what `npm run schema` generates now (run it and commit schema/ when this fails)', () => {
    expect(committed === schemaText(), 'schema/sq.schema.json is out of date: run `npm run schema` and commit it').toBe(
      true,
    );
  });

  it('schema/sq-plan.schema.json (the --json document of plan and apply) is what `npm run schema` generates now', () => {
    const doc = readFileSync(resolve(root, DOCUMENT_SCHEMA_FILE), 'utf8');
    expect(
      doc === documentSchemaText(),
      'schema/sq-plan.schema.json is out of date: run `npm run schema` and commit it',
    ).toBe(true);
  });

  it('the README points editors at the shipped file', () => {
    // By URL, into this version's npm package: valid for a global install, the CI action and the standalone executable.
    const { version } = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8'));
    expect(readFileSync(resolve(root, 'README.md'), 'utf8')).toContain(
      `# yaml-language-server: $schema=https://unpkg.com/lobstr-sq@${version}/schema/sq.schema.json`,
    );
    expect(JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')).files).toContain('schema');
  });

  const files = readmeFiles();
  it('the README and docs/account-as-code.md have the account file and the delivery file examples', () =>
    expect(files.length).toBeGreaterThanOrEqual(3));
  for (const [i, text] of files.entries()) {
    it(`README example ${i + 1} (${text.split('\n')[0]}) is valid for the JSON Schema and for sq`, async () => {
      const doc = await parseApplyText(text, `README example ${i + 1}`);
      expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
      expect(accountSchema.safeParse(doc).success).toBe(true);
    });
  }

  it.each([
    [{ squids: { a: { concurrency: 30 } } }],
    [{ squids: { a: { sftp: { host: 'h', username: 'u', directory: '/d', password: 'hunter2' } } } }],
    [{ squids: { a: { notify: 'always' } } }],
    [{ billing: { auto_reset: { max_resets: 11 } } }],
    [{ squids: { a: { colour: 'red' } } }],
  ])('the JSON Schema refuses what sq refuses: %j', (doc) => {
    expect(accountSchema.safeParse(doc).success).toBe(false);
    expect(validate(doc)).toBe(false);
  });
});
