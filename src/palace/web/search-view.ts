/** Search results for the query in the header, at HEAD or at the commit chosen on the timeline (or typed). */
import { useState } from 'preact/hooks';
import type { SearchReply } from '../api-types.js';
import { Problem, useLoad } from './common.js';
import { html } from './html.js';
import type { Source } from './source.js';
import { short } from './util.js';

export function SearchView(p: {
  source: Source;
  agent: string;
  query: string;
  at: string | null;
  tick: number;
  onOpen: (path: string, at: string | null) => void;
}) {
  const [at, setAt] = useState(p.at ?? '');
  const [typed, setTyped] = useState(p.at ?? '');
  const r = useLoad(
    () =>
      p.query.trim() === ''
        ? null
        : p.source.get<SearchReply>('search', { agent: p.agent, q: p.query, at: at || undefined }),
    [p.agent, p.query, at, p.tick],
  );
  return html`<section class="search"><h2>Search: <q>${p.query}</q></h2>
    <form class="row" onSubmit=${(e: Event) => {
      e.preventDefault();
      setAt(typed.trim());
    }}>
      <label>at commit <input name="at" placeholder="HEAD" value=${typed} onInput=${(e: Event) => setTyped((e.target as HTMLInputElement).value)} /></label>
      <button type="submit">Search there</button></form>
    <${Problem} text=${r.error} />
    ${
      r.data
        ? html`<p class="muted">${r.data.hits.length} hit(s) at <code>${short(r.data.commit)}</code></p>
      <ol class="hits">${r.data.hits.map(
        (
          h,
        ) => html`<li><button class="link hit" data-path=${h.path} onClick=${() => p.onOpen(h.path, at || null)}>${h.path}</button><span class="muted"> line ${h.line}</span>
        ${h.description ? html`<div class="desc">${h.description}</div>` : null}<pre class="snippet">${h.text}</pre></li>`,
      )}</ol>`
        : null
    }
  </section>`;
}
