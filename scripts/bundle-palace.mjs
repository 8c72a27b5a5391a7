// Bundles the Memory Palace page (src/palace/web: Preact + htm, markdown-it, DOMPurify) into one script and
// one stylesheet under dist/palace/assets. The server sends them, an export inlines them; nothing is ever
// fetched from elsewhere at run time. The script must be inlinable: no `</script` or `<!--` in it.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';

const out = 'dist/palace/assets';
mkdirSync(out, { recursive: true });
await build({
  entryPoints: ['src/palace/web/main.ts'],
  outfile: `${out}/palace.js`,
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: ['es2022'],
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
  define: { 'process.env.NODE_ENV': '"production"' },
});
await build({
  entryPoints: ['src/palace/web/palace.css'],
  outfile: `${out}/palace.css`,
  bundle: true,
  minify: true,
  logLevel: 'warning',
});
// `<!--`, `<script` and `</script` change how HTML reads an inline script. In the minified bundle they can
// only sit in string, template or regular-expression literals, where `\x3C` means the same `<`.
const script = readFileSync(`${out}/palace.js`, 'utf8').replace(/<(?=!--|\/?script)/gi, '\\x3C');
if (/<\/script|<!--|<script/i.test(script))
  throw new Error('palace.js still contains </script, <script or <!--: it could not be inlined in an export');
writeFileSync(`${out}/palace.js`, script);
// Licences of the bundled packages ship beside the bundle (legalComments are dropped from it).
const licences = [
  'preact',
  'htm',
  'markdown-it',
  'dompurify',
  'entities',
  'linkify-it',
  'mdurl',
  'punycode.js',
  'uc.micro',
]
  .map((name) => {
    try {
      return `${name}\n${'-'.repeat(name.length)}\n${readFileSync(`node_modules/${name}/LICENSE`, 'utf8').trim()}\n`;
    } catch {
      return `${name}: see its package on the npm registry\n`;
    }
  })
  .join('\n');
writeFileSync(`${out}/LICENSES.txt`, licences);
