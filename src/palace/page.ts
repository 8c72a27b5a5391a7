/**
 * The page: the bundled script and style (built by scripts/bundle-palace.mjs into dist/palace/assets, read
 * once), the HTML that loads them from the server, and the HTML of an export, which carries them inline
 * (allowed by their hashes) with the snapshot as inert JSON.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { assetPath } from '../assets.js';
import { MemoryError } from '../index.js';
import { exportPolicy } from './security.js';

export interface PageAssets {
  script: Buffer;
  style: Buffer;
  /** Short content hash, so a browser never mixes two builds. */
  version: string;
}

let loaded: PageAssets | undefined;

/** The built page (INTERNAL when the build step did not run). */
export function pageAssets(): PageAssets {
  if (loaded) return loaded;
  try {
    const script = readFileSync(assetPath('palace/assets/palace.js'));
    const style = readFileSync(assetPath('palace/assets/palace.css'));
    const version = createHash('sha256').update(script).update(style).digest('hex').slice(0, 12);
    return (loaded = { script, style, version });
  } catch (err) {
    throw new MemoryError('INTERNAL', 'the Memory Palace page is not built (run `npm run build`)', { cause: err });
  }
}

/** The live page: relative URLs, so every request carries the token path it was loaded from. */
export function livePage(a: PageAssets): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Memory Palace</title><link rel="icon" href="data:,"><link rel="stylesheet" href="palace.css?v=${a.version}"></head>
<body><div id="app"></div><script type="module" src="palace.js?v=${a.version}"></script></body></html>
`;
}

/**
 * JSON that can sit inside a `<script type="application/json">`: no `<`, `>` or `&` (so no `</script>` or
 * `<!--`), nor the two line separators older parsers choke on.
 * @example inertJson({ a: '</script>' }) // '{"a":"\\u003c/script\\u003e"}'
 */
export function inertJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('base64');

/** One self-contained file: the page, its style and the snapshot. */
export function exportPage(a: PageAssets, snapshot: unknown): string {
  const script = a.script.toString('utf8');
  const style = a.style.toString('utf8');
  // The bundle sits inside <script>…</script>: it must not close the element itself.
  if (/<\/script|<!--/i.test(script) || /<\/style/i.test(style))
    throw new MemoryError('INTERNAL', 'the palace bundle cannot be inlined (it contains </script or <!--)');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${exportPolicy(sha256(script), sha256(style))}">
<meta name="referrer" content="no-referrer"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Memory Palace (export)</title><link rel="icon" href="data:,"><style>${style}</style></head>
<body><div id="app"></div><script type="application/json" id="palace-data">${inertJson(snapshot)}</script><script type="module">${script}</script></body></html>
`;
}
