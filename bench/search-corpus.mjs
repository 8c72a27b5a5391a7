// A seeded, synthetic memory corpus for the search benchmarks: markdown files with a frontmatter description
// and 6–25 lines of words drawn from an 8,000-word vocabulary with a skewed (Zipf-like) frequency, some
// words accented. About 840 bytes per file, like the notes an agent keeps.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** mulberry32: a small seeded PRNG (same corpus on every run). */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'ne',
  'su',
  'ta',
  'ri',
  'po',
  'zu',
  'be',
  'da',
  'fe',
  'gi',
  'ho',
  'ju',
  'va',
  'wo',
  'xe',
  'yo',
  'qu',
  'é',
  'ö',
];

function vocabulary(size, random) {
  const out = new Set();
  while (out.size < size) {
    let w = '';
    const k = 2 + Math.floor(random() * 3);
    for (let i = 0; i < k; i++) w += SYLLABLES[Math.floor(random() * SYLLABLES.length)];
    out.add(w);
  }
  return [...out];
}

/** `count` files `{ path, text }` and the vocabulary (most frequent first). */
export function makeCorpus(count, seed = 1) {
  const random = rng(seed);
  const words = vocabulary(8000, random);
  const pick = () => words[Math.floor(words.length * Math.pow(random(), 2.2))];
  const files = [];
  for (let i = 0; i < count; i++) {
    const body = [];
    const lines = 6 + Math.floor(random() * 20);
    for (let l = 0; l < lines; l++) {
      const n = 3 + Math.floor(random() * 9);
      body.push(Array.from({ length: n }, pick).join(' '));
    }
    files.push({
      path: `notes/d${Math.floor(i / 100)}/f${i}.md`,
      text: `---\ndescription: ${pick()} ${pick()} ${pick()}\n---\n${body.join('\n')}\n`,
    });
  }
  return { files, words };
}

/** Writes the files under `dir`. */
export function writeCorpus(dir, files) {
  const made = new Set();
  for (const f of files) {
    const d = dirname(join(dir, f.path));
    if (!made.has(d)) mkdirSync(d, { recursive: true });
    made.add(d);
    writeFileSync(join(dir, f.path), f.text);
  }
}

/** Query words of three frequencies: common (~70% of files), middling (~3%), rare (<1%). */
export function queryWords(words) {
  return { common: words[5], middling: words[500], rare: words[5000] };
}
