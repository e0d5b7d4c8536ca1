// Counts as people read them: 12,345. Apart from progress.ts so that what only says a count (the list commands'
// paging hint, cli/paging.ts) does not load the display-width tables that progress bars need.
export function count(n: number): string {
  return n.toLocaleString('en-US');
}
