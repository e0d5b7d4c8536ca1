#!/usr/bin/env node
// Lists the functions in src/ longer than a limit (80 lines by default), longest first: every function-like node
// (declarations, methods, arrows, function expressions), each nested one counted on its own. Used by
// test/unit/long-functions.test.ts, which holds the line; run by hand with `node scripts/long-functions.mjs [limit]`.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';

export const LIMIT = 80;
const root = resolve(import.meta.dirname, '..');

function* sourceFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) yield path;
  }
}

/** The name a reader would search for: the declared name, or the variable/property/call the function is given to. */
function nameOf(node) {
  if (node.name) return node.name.getText();
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) return parent.name.getText();
  if (ts.isCallExpression(parent)) {
    const first = parent.arguments[0];
    const label = first && ts.isStringLiteralLike(first) ? ` ${first.text}` : '';
    return `${parent.expression.getText().split('\n')[0]}(${label.trim()}) callback`;
  }
  return '(anonymous)';
}

let measured;

/** Every function in src/ over `limit` lines: { file, name, line, lines }, longest first. */
export function longFunctions(limit = LIMIT) {
  // src/ is parsed once per process: the test asks at two limits (parsing it twice cost ~0.4 s more CPU).
  measured ??= functionLengths();
  return measured.filter((f) => f.lines > limit);
}

/** Every function in src/ with its length: { file, name, line, lines }, longest first. */
function functionLengths() {
  const found = [];
  for (const path of sourceFiles(join(root, 'src'))) {
    const text = readFileSync(path, 'utf8');
    const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
    const visit = (node) => {
      if (ts.isFunctionLike(node) && 'body' in node && node.body) {
        const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
        const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
        found.push({ file: relative(root, path), name: nameOf(node), line: start + 1, lines: end - start + 1 });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found.sort((a, b) => b.lines - a.lines);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const limit = Number(process.argv[2] ?? LIMIT);
  const found = longFunctions(limit);
  for (const f of found) console.log(`${String(f.lines).padStart(4)}  ${f.file}:${f.line}  ${f.name}`);
  console.log(`${found.length} function(s) over ${limit} lines`);
}
