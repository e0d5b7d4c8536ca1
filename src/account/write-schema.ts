// `npm run schema`: writes schema/sq.schema.json (the account file) and schema/sq-plan.schema.json (the --json
// document of plan, apply and delivery apply) from the zod schemas the CLI uses. A test fails when a committed file
// differs from what this writes (test/unit/account-schema.test.ts).
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { accountJsonSchema } from './schema.js';
import { documentJsonSchema } from './document.js';

const text = (schema: Record<string, unknown>) => `${JSON.stringify(schema, null, 2)}\n`;

export function schemaText(): string {
  return text(accountJsonSchema());
}

export function documentSchemaText(): string {
  return text(documentJsonSchema());
}

export const SCHEMA_FILE = 'schema/sq.schema.json';
export const DOCUMENT_SCHEMA_FILE = 'schema/sq-plan.schema.json';

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.dirname, 'write-schema.js')) {
  const root = resolve(import.meta.dirname, '../..');
  for (const [file, body] of [
    [SCHEMA_FILE, schemaText()],
    [DOCUMENT_SCHEMA_FILE, documentSchemaText()],
  ]) {
    const out = resolve(root, file);
    await mkdir(dirname(out), { recursive: true });
    await writeFile(out, body);
    process.stdout.write(`wrote ${file}\n`);
  }
}
