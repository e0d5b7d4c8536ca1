// `npm run schema`: writes schema/sq.schema.json from the zod schema the CLI validates with. A test fails when the
// committed file differs from what this writes (test/unit/account-schema.test.ts).
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { accountJsonSchema } from './schema.js';

export function schemaText(): string {
  return `${JSON.stringify(accountJsonSchema(), null, 2)}\n`;
}

export const SCHEMA_FILE = 'schema/sq.schema.json';

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.dirname, 'write-schema.js')) {
  const out = resolve(import.meta.dirname, '../..', SCHEMA_FILE);
  await mkdir(dirname(out), { recursive: true });
  await writeFile(out, schemaText());
  process.stdout.write(`wrote ${SCHEMA_FILE}\n`);
}
