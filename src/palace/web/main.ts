/** The page's entry: an export carries its snapshot inline; otherwise the page talks to the server it came from. */
import { render } from 'preact';
import type { ExportSnapshot } from '../api-types.js';
import { App } from './app.js';
import { html } from './html.js';
import { liveSource } from './source.js';
import { staticSource } from './static-source.js';

const inline = document.getElementById('palace-data');
const source = inline ? staticSource(JSON.parse(inline.textContent ?? '{}') as ExportSnapshot) : liveSource();
const root = document.getElementById('app');
if (root) render(html`<${App} source=${source} />`, root);
