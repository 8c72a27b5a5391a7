/**
 * One file: rendered markdown with its frontmatter, or the raw text; a banner when main moved under it;
 * its history, where any two versions can be compared, each change shown, and one reverted (a commit with
 * the reason typed in).
 */
import { useEffect, useState } from 'preact/hooks';
import type { DiffReply, FileReply, HistoryReply, UpdateEvent } from '../api-types.js';
import { DiffView, Problem, ReasonForm, useLoad, WriterBadge } from './common.js';
import { html } from './html.js';
import { renderMarkdown } from './markdown.js';
import type { Source } from './source.js';
import { firstLine, formatTokens, short, when, WRITER_LABEL } from './util.js';

export interface FileViewProps {
  source: Source;
  agent: string;
  path: string;
  at: string | null;
  tick: number;
  event: UpdateEvent | null;
  onOpen: (path: string) => void;
  notify: (text: string) => void;
}

function Frontmatter({ data }: { data: Record<string, unknown> | null }) {
  if (!data || Object.keys(data).length === 0) return html`<p class="muted">No frontmatter.</p>`;
  return html`<table class="frontmatter"><tbody>${Object.entries(data).map(([k, v]) => html`<tr><th>${k}</th><td>${typeof v === 'string' ? v : JSON.stringify(v)}</td></tr>`)}</tbody></table>`;
}

function Rendered({ file, onOpen }: { file: FileReply; onOpen: (path: string) => void }) {
  const click = (e: MouseEvent) => {
    const a = (e.target as HTMLElement).closest('a');
    if (!a) return;
    const target = a.getAttribute('data-mempath');
    if (a.getAttribute('href') === '#' || target) e.preventDefault();
    if (target) onOpen(target);
  };
  if (!file.path.endsWith('.md')) return html`<pre class="raw">${file.text}</pre>`;
  return html`<div><${Frontmatter} data=${file.frontmatter} />
    <article class="markdown" onClick=${click} dangerouslySetInnerHTML=${{ __html: renderMarkdown(file.body, file.path) }}></article></div>`;
}

function History(p: FileViewProps & { history: HistoryReply }) {
  const [pick, setPick] = useState<{ a: string | null; b: string | null }>({ a: null, b: null });
  const [shown, setShown] = useState<{ key: string; diff: DiffReply } | { key: string; error: string } | null>(null);
  const [reverting, setReverting] = useState<string | null>(null);
  const show = (key: string, params: Record<string, string | undefined>) =>
    p.source.get<DiffReply>('diff', { agent: p.agent, path: p.path, ...params }).then(
      (diff) => setShown({ key, diff }),
      (err: unknown) => setShown({ key, error: String((err as Error).message) }),
    );
  const compare = () => pick.a && pick.b && show(`${pick.a}..${pick.b}`, { from: pick.a, to: pick.b });
  const entries = p.history.entries;
  return html`<section class="history"><h3>History <span class="muted">(${entries.length}${p.history.more ? '+' : ''} changes)</span></h3>
    <div class="row compare">
      <span class="muted">Compare: choose version A and B, then</span>
      <button disabled=${!pick.a || !pick.b} onClick=${compare} class="compare-btn">Compare A → B</button>
    </div>
    <ol class="commits">${entries.map(
      (e, i) => html`<li key=${e.sha} class="commit" data-sha=${e.sha}>
      <div class="row">
        <label title="version A"><input type="radio" name="ver-a" checked=${pick.a === e.sha} onChange=${() => setPick({ ...pick, a: e.sha })} />A</label>
        <label title="version B"><input type="radio" name="ver-b" checked=${pick.b === e.sha} onChange=${() => setPick({ ...pick, b: e.sha })} />B</label>
        <code>${short(e.sha)}</code> <${WriterBadge} writer=${e.writer} /> <span class="author">${e.author}</span>
        <span class="muted">${when(e.date)}</span>
      </div>
      <div class="reason">${firstLine(e.reason)}</div>
      <div class="row actions">
        <button class="show-diff" onClick=${() => show(e.sha, { to: e.sha })}>What changed</button>
        ${p.source.live && i >= 0 ? html`<button class="revert" onClick=${() => setReverting(e.sha)}>Revert this change…</button>` : null}
      </div>
      ${
        reverting === e.sha
          ? html`<${ReasonForm} label="Revert" placeholder="Why revert this change?" onCancel=${() => setReverting(null)}
          action=${async (reason: string) => {
            const r = await p.source.post<{ commit: string }>('revert', p.agent, { sha: e.sha, reason });
            setReverting(null);
            p.notify(`Reverted ${short(e.sha)} in ${short(r.commit)}`);
          }} />`
          : null
      }
      ${shown?.key === e.sha ? ('diff' in shown ? html`<${DiffView} diff=${shown.diff} />` : html`<${Problem} text=${shown.error} />`) : null}
    </li>`,
    )}</ol>
    ${
      shown && shown.key.includes('..')
        ? html`<div class="compare-result"><h4>${shown.key.split('..').map(short).join(' → ')}</h4>
      ${'diff' in shown ? html`<${DiffView} diff=${shown.diff} />` : html`<${Problem} text=${shown.error} />`}</div>`
        : null
    }
  </section>`;
}

export function FileView(p: FileViewProps) {
  const [mode, setMode] = useState<'rendered' | 'raw' | 'frontmatter'>('rendered');
  const [changed, setChanged] = useState<UpdateEvent | null>(null);
  useEffect(() => setChanged(null), [p.path, p.agent]);
  useEffect(() => {
    if (p.event && p.event.affected_paths.includes(p.path)) setChanged(p.event);
  }, [p.event]);
  const file = useLoad(
    () => p.source.get<FileReply>('file', { agent: p.agent, path: p.path, at: p.at ?? undefined }),
    [p.agent, p.path, p.at, p.tick],
  );
  const history = useLoad(
    () => p.source.get<HistoryReply>('history', { agent: p.agent, path: p.path, limit: 50, at: p.at ?? undefined }),
    [p.agent, p.path, p.at, p.tick],
  );
  const f = file.data;
  return html`<div class="file-view">
    <header class="file-head"><h2 class="path">${p.path}</h2>
      ${f ? html`<span class="muted">${f.size} bytes · ${formatTokens(f.tokens)} tokens · at <code>${short(f.commit)}</code></span>` : null}</header>
    ${
      changed
        ? html`<div class="changed" role="status">This file changed: ${WRITER_LABEL[changed.writer]} moved main to <code>${short(changed.commit)}</code> at ${when(changed.timestamp)}${p.at ? ' (you are looking at an older commit)' : ' — showing the new version'}.
      <button onClick=${() => setChanged(null)}>Dismiss</button></div>`
        : null
    }
    <div class="tabs small">${(['rendered', 'raw', 'frontmatter'] as const).map((m) => html`<button class=${mode === m ? 'active' : ''} onClick=${() => setMode(m)}>${m}</button>`)}</div>
    <${Problem} text=${file.error} />
    ${f ? (mode === 'raw' ? html`<pre class="raw">${f.text}</pre>` : mode === 'frontmatter' ? html`<${Frontmatter} data=${f.frontmatter} />` : html`<${Rendered} file=${f} onOpen=${p.onOpen} />`) : null}
    ${f?.truncated ? html`<p class="muted">The file is larger than the page shows.</p>` : null}
    ${history.data ? html`<${History} ...${p} history=${history.data} />` : null}
  </div>`;
}
