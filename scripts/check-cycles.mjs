// Fails when src/**/*.ts (tests aside) has an import cycle (issue 26): layers are folders with downward
// imports, and inside a folder too each file should sit above or below another, never both.
// Type-only imports (`import type …`, `export type … from`) count as well: they are erased at runtime,
// but every cycle gitmem had was made of them (a file above exporting a type a file below needs), and a
// type tangle is the same layering problem; a value-only check would have guarded nothing.
// `import { type A } from` counts like any import. Dynamic `import()` does not: it is lazy on purpose.
// A regex scanner is enough: the code is ours and starts every import at the beginning of a line
// (checked against TypeScript's own parse: the same edges).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');

function listSources(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...listSources(path));
    else if (name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

// `import [type] [default][, ]{…}|* as x from 'spec'`, `export [type] {…}|* [as x] from 'spec'`,
// and `import 'spec'`; a braces list may span lines.
const CLAUSE = String.raw`(?:type\s+)?(?:[\w$]+\s*,?\s*)?(?:\{[^}]*\}|\*(?:\s+as\s+[\w$]+)?)?\s*from\s*`;
const STATEMENT = new RegExp(String.raw`^\s*(?:import|export)\s+(?:${CLAUSE})?['"]([^'"]+)['"]`, 'gm');

/** The runtime imports of one file, as absolute paths of files under src. */
function importsOf(file, known) {
  const text = readFileSync(file, 'utf8');
  const deps = new Set();
  for (const match of text.matchAll(STATEMENT)) {
    const spec = match[1];
    if (!spec.startsWith('.')) continue;
    const target = resolve(dirname(file), spec.replace(/\.js$/, '.ts'));
    if (known.has(target)) deps.add(target);
  }
  return [...deps];
}

/** Tarjan's strongly connected components; returns those with a cycle (size > 1 or a self-import). */
function cyclicComponents(graph) {
  const index = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const found = [];
  let next = 0;
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) !== index.get(v)) return;
    const component = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || graph.get(v).includes(v)) found.push(component);
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

/** One concrete cycle inside a component, for the message: a breadth-first path back to its start. */
function chainIn(graph, component) {
  const members = new Set(component);
  const start = [...component].sort()[0];
  const parent = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift();
    for (const w of graph.get(v)) {
      if (!members.has(w)) continue;
      if (w === start) {
        const chain = [start];
        for (let u = v; u !== start; u = parent.get(u)) chain.splice(1, 0, u);
        return [...chain, start];
      }
      if (!parent.has(w)) {
        parent.set(w, v);
        queue.push(w);
      }
    }
  }
  return component;
}

const files = listSources(src);
const known = new Set(files);
const graph = new Map(files.map((f) => [f, importsOf(f, known)]));
const cycles = cyclicComponents(graph);
const show = (f) => relative(root, f);
for (const component of cycles) {
  const chain = chainIn(graph, component).map(show).join(' -> ');
  console.error(`import cycle (${component.length} files): ${chain}`);
  if (component.length > 2) console.error(`  all of: ${component.map(show).sort().join(', ')}`);
}
if (cycles.length > 0) {
  console.error(
    `${cycles.length} import cycle(s) among src/**/*.ts (type-only imports included; see scripts/check-cycles.mjs)`,
  );
  process.exit(1);
}
console.log(`no import cycles among ${files.length} files in src`);
