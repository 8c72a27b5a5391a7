/**
 * The watcher thread's code (plain CommonJS, run with `new Worker(source, { eval: true })`, so it loads the
 * same from src/ and dist/). A thread of its own has an inotify instance of its own: every kernel event in
 * that queue is one this code counts, which is what lets the main side bound a silent queue overflow (Node
 * drops IN_Q_OVERFLOW without a word). It watches every directory of the work tree except the top `.git`
 * (one inotify watch per directory), plus the cookie directory, and posts, in kernel order:
 *   { p: path }        a name in the tree changed (repo-relative, '/'-separated)
 *   { d: dir }         a name in `dir` changed that cannot be named exactly (null or undecodable)
 *   { c: name }        a cookie file appeared
 *   { n: count }       raw events seen since the last batch (each callback is one kernel event)
 *   { ready: files }   the initial walk is done (regular files seen)
 *   { broken: why }    a watch could not be set or failed: nothing it reports is complete any more
 */
export const WATCHER_WORKER_SOURCE = String.raw`
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const { join } = require('node:path');
const root = workerData.root;
const watches = new Map();
let batch = [];
let raw = 0;
let scheduled = false;
function flush() {
  scheduled = false;
  const out = batch;
  batch = [];
  out.push({ n: raw });
  raw = 0;
  parentPort.postMessage(out);
}
function post(msg) {
  batch.push(msg);
  if (!scheduled) { scheduled = true; setImmediate(flush); }
}
function broken(why) { post({ broken: String(why) }); }
function unwatch(rel) {
  for (const [dir, w] of watches) {
    if (dir === rel || dir.startsWith(rel + '/')) { w.close(); watches.delete(dir); }
  }
}
function onEvent(rel, name) {
  raw++;
  if (typeof name !== 'string' || name === '' || name.includes('\uFFFD') || name.includes('/')) {
    post({ d: rel });
    return;
  }
  if (rel === '' && name === '.git') return;
  const path = rel === '' ? name : rel + '/' + name;
  post({ p: path });
  let st;
  try { st = fs.lstatSync(join(root, path)); } catch { st = undefined; }
  if (st && st.isDirectory()) { if (!watches.has(path)) walk(path); }
  else if (watches.has(path)) unwatch(path);
}
function walk(rel) {
  let files = 0;
  const stack = [rel];
  while (stack.length > 0) {
    const dir = stack.pop();
    const abs = dir === '' ? root : join(root, dir);
    try {
      const w = fs.watch(abs, { persistent: true }, (_type, name) => onEvent(dir, name));
      w.on('error', (err) => broken(err && err.code ? err.code : err));
      watches.set(dir, w);
    } catch (err) {
      if (err && (err.code === 'ENOENT' || err.code === 'ENOTDIR')) continue; // gone again: its parent's event names it
      broken(err && err.code ? err.code : err);
      return files;
    }
    let entries;
    try { entries = fs.readdirSync(abs, { withFileTypes: true }); } catch { continue; }
    for (const e of entries) {
      if (e.isDirectory()) { if (!(dir === '' && e.name === '.git')) stack.push(dir === '' ? e.name : dir + '/' + e.name); }
      else files++;
    }
  }
  return files;
}
try {
  const cw = fs.watch(workerData.cookieDir, { persistent: true }, (_type, name) => { raw++; if (typeof name === 'string') post({ c: name }); });
  cw.on('error', (err) => broken(err && err.code ? err.code : err));
  post({ ready: walk('') });
} catch (err) {
  broken(err && err.code ? err.code : err);
}
parentPort.on('message', (m) => { if (m === 'close') { for (const w of watches.values()) w.close(); process.exit(0); } });
`;
