// Which full-text engine gitmem's search uses, measured: MiniSearch, Orama and SQLite FTS5 (better-sqlite3) on
// the same synthetic memories of 1,000 and 10,000 files, each used the way a persisted, incremental index
// needs it: full build and save, one changed file re-indexed and saved, a warm top-10 query, a fresh process
// that loads the engine, opens the saved index and answers one query, the index's size on disk and the
// engine's module load time. Run: `node bench/search-engines.mjs` (engines not installed are skipped; the
// two the project does not depend on: `npm i --no-save minisearch@7.2.0 @orama/orama@3.1.18`, or point
// ENGINE_DIR at a folder whose node_modules holds them).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { removeTmpDirs, round, stats, tmpDir } from './lib.mjs';
import { makeCorpus, queryWords } from './search-corpus.mjs';

const requireFrom = createRequire(join(process.env.ENGINE_DIR ?? process.cwd(), 'noop.js'));
const resolveEngine = (id) => {
  try {
    return requireFrom.resolve(id);
  } catch {
    return null;
  }
};
const importEngine = async (id) => import(pathToFileURL(resolveEngine(id)).href);

const fold = (s) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
const dirSize = (dir) => readdirSync(dir).reduce((n, f) => n + statSync(join(dir, f)).size, 0);

const ENGINES = {
  minisearch: {
    id: 'minisearch',
    options: {
      fields: ['description', 'body'],
      idField: 'id',
      processTerm: fold,
      searchOptions: { boost: { description: 3 }, prefix: true },
    },
    async build(mod, dir, docs) {
      const ms = new mod.default(this.options);
      ms.addAll(docs);
      writeFileSync(join(dir, 'index.json'), JSON.stringify(ms));
      return ms;
    },
    async update(mod, dir, ms, oldId, doc) {
      ms.discard(oldId);
      ms.add(doc);
      writeFileSync(join(dir, 'index.json'), JSON.stringify(ms));
    },
    query: (ms, q) => ms.search(q).slice(0, 10),
    coldScript: `const m = await import(E); const fs = await import('node:fs');
      const ms = m.default.loadJSON(fs.readFileSync(D + '/index.json', 'utf8'), O); ms.search(Q).slice(0, 10);`,
  },
  orama: {
    id: '@orama/orama',
    async build(mod, dir, docs) {
      const db = mod.create({ schema: { id: 'string', description: 'string', body: 'string' } });
      await mod.insertMultiple(db, docs);
      writeFileSync(join(dir, 'index.json'), JSON.stringify(mod.save(db)));
      return db;
    },
    async update(mod, dir, db, oldId, doc) {
      await mod.remove(db, oldId);
      await mod.insert(db, doc);
      writeFileSync(join(dir, 'index.json'), JSON.stringify(mod.save(db)));
    },
    query: (db, q, mod) => mod.search(db, { term: q, limit: 10, boost: { description: 3 } }),
    coldScript: `const m = await import(E); const fs = await import('node:fs');
      const db = m.create({ schema: { id: 'string', description: 'string', body: 'string' } });
      m.load(db, JSON.parse(fs.readFileSync(D + '/index.json', 'utf8'))); await m.search(db, { term: Q, limit: 10 });`,
  },
  fts5: {
    id: 'better-sqlite3',
    async build(mod, dir, docs) {
      const db = new mod.default(join(dir, 'index.sqlite'));
      db.pragma('journal_mode = WAL');
      db.exec(`CREATE TABLE blobs(id INTEGER PRIMARY KEY, oid TEXT UNIQUE NOT NULL);
        CREATE VIRTUAL TABLE fts USING fts5(description, body, tokenize = 'unicode61 remove_diacritics 2');`);
      const addBlob = db.prepare('INSERT INTO blobs(oid) VALUES (?)');
      const addText = db.prepare('INSERT INTO fts(rowid, description, body) VALUES (?, ?, ?)');
      db.transaction(() => {
        for (const d of docs) addText.run(addBlob.run(d.id).lastInsertRowid, d.description, d.body);
      })();
      return db;
    },
    async update(mod, dir, db, oldId, doc) {
      db.transaction(() => {
        const row = db.prepare('SELECT id FROM blobs WHERE oid = ?').get(oldId);
        db.prepare('DELETE FROM fts WHERE rowid = ?').run(row.id);
        db.prepare('DELETE FROM blobs WHERE id = ?').run(row.id);
        const id = db.prepare('INSERT INTO blobs(oid) VALUES (?)').run(doc.id).lastInsertRowid;
        db.prepare('INSERT INTO fts(rowid, description, body) VALUES (?, ?, ?)').run(id, doc.description, doc.body);
      })();
    },
    query: (db, q) =>
      db.prepare('SELECT rowid, bm25(fts, 3, 1) AS s FROM fts WHERE fts MATCH ? ORDER BY s LIMIT 10').all(`"${q}" *`),
    coldScript: `const m = await import(E); const db = new m.default(D + '/index.sqlite', { readonly: true });
      db.prepare('SELECT rowid, bm25(fts, 3, 1) AS s FROM fts WHERE fts MATCH ? ORDER BY s LIMIT 10').all('"' + Q + '" *');`,
  },
};

function toDocs(files) {
  return files.map((f) => {
    const end = f.text.indexOf('\n---\n', 4);
    return {
      id: createHash('sha1').update(f.text).digest('hex'),
      description: f.text.slice(17, end),
      body: f.text.slice(end + 5),
    };
  });
}

/** Wall time of a fresh `node` (without the CA-bundle variable this machine sets) running `script`. */
function freshProcess(script, vars, iterations) {
  const env = { ...process.env };
  delete env.NODE_EXTRA_CA_CERTS;
  const prelude = Object.entries(vars)
    .map(([k, v]) => `const ${k} = ${JSON.stringify(v)};`)
    .join('');
  const run = () => {
    const t0 = performance.now();
    execFileSync(process.execPath, ['--input-type=module', '-e', prelude + script], {
      env,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    return performance.now() - t0;
  };
  run();
  return stats(Array.from({ length: iterations }, run)).median;
}

async function measure(name, engine, size, docs, word) {
  const mod = await importEngine(engine.id);
  const dir = tmpDir(`gitmem-engine-${name}-`);
  const t0 = performance.now();
  const handle = await engine.build(mod, dir, docs);
  const build = performance.now() - t0;
  const updates = [];
  for (let i = 0; i < 7; i++) {
    const victim = docs[i * 13];
    const next = {
      ...victim,
      id: createHash('sha1').update(`${victim.id}${i}`).digest('hex'),
      body: `${victim.body}\nchanged ${i}`,
    };
    const t = performance.now();
    await engine.update(mod, dir, handle, victim.id, next);
    updates.push(performance.now() - t);
    docs[i * 13] = next;
  }
  const warm = [];
  for (let i = 0; i < 40; i++) {
    const t = performance.now();
    await engine.query(handle, word, mod);
    warm.push(performance.now() - t);
  }
  const vars = { E: pathToFileURL(resolveEngine(engine.id)).href, D: dir, Q: word, O: engine.options ?? {} };
  const baseline = freshProcess('', {}, 5);
  const load = freshProcess('await import(E);', vars, 5) - baseline;
  const cold = freshProcess(engine.coldScript.replace('processTerm: fold', ''), vars, 5) - baseline;
  const row = {
    engine: name,
    files: size,
    build_ms: round(build),
    update_ms: round(stats(updates).median),
    warm_query_ms: round(stats(warm.slice(10)).median),
    cold_first_query_ms: round(cold),
    index_mb: round(dirSize(dir) / 2 ** 20),
    load_ms: round(load),
  };
  if (typeof handle.close === 'function') handle.close();
  rmSync(dir, { recursive: true, force: true });
  return row;
}

const rows = [];
for (const size of [1000, 10000]) {
  const { files, words } = makeCorpus(size);
  const word = queryWords(words).middling;
  for (const [name, engine] of Object.entries(ENGINES)) {
    if (resolveEngine(engine.id) === null) {
      process.stderr.write(`search-engines: ${engine.id} not installed, skipped\n`);
      continue;
    }
    if (name === 'minisearch')
      engine.coldScript = engine.coldScript.replace(
        ', O)',
        ', { ...O, processTerm: (s) => s.normalize("NFD").replace(/\\p{M}/gu, "").toLowerCase() })',
      );
    rows.push(await measure(name, engine, size, toDocs(files), word));
    process.stderr.write(`search-engines: ${name} @ ${size} done\n`);
  }
}
removeTmpDirs();
const header = Object.keys(rows[0] ?? {});
console.log(`| ${header.join(' | ')} |\n|${header.map(() => '---').join('|')}|`);
for (const r of rows) console.log(`| ${header.map((h) => r[h]).join(' | ')} |`);
console.log(`load average: ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
mkdirSync(new URL('./', import.meta.url), { recursive: true });
