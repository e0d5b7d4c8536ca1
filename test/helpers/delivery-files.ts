// The delivery file both `delivery apply` test files start from.

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
