// The name commander gives an option's value: `--dry-run` → `dryRun` (without a `no-` prefix's removal, which the
// caller does). Plain string work, not regular expressions: it runs on every plain command line.

/** `--dry-run`, `-y` or `dry-run` → `dryRun`, `y`. */
export function attributeName(flag: string): string {
  let i = flag.startsWith('--') ? 2 : flag.startsWith('-') ? 1 : 0;
  let out = '';
  for (; i < flag.length; i++) out += flag[i] === '-' && i + 1 < flag.length ? flag[++i]!.toUpperCase() : flag[i];
  return out;
}
