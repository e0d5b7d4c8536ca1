// "1 task", "2 tasks": a count with its noun, in the number it takes (never "task(s)").

/** `n` and `one` in the singular when n is 1, else `many` (default: `one` + "s"). */
export function counted(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
