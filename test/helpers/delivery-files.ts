// The delivery file both `delivery apply` test files start from, and a writer of temp files for them.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Writes named files into a fresh temp dir and returns their paths. */
export function tempFiles(prefix: string): (name: string, text: string) => string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return (name, text) => {
    const p = join(dir, name);
    writeFileSync(p, text);
    return p;
  };
}

/** Two squids: SFTP (password from ${SFTP_PASSWORD}) and a webhook to `hookUrl` on one, e-mail on the other. */
export function deliveryYaml(hookUrl: string): string {
  return `
squids:
  "Paris restaurants":
    sftp: { host: sftp.example.com, port: 2222, username: deploy, password: \${SFTP_PASSWORD}, directory: /upload }
    webhook: { url: "${hookUrl}", events: [run.done, run.error], retry: false }
  "Lyon bakeries":
    email: { address: ops@example.com }
`;
}
