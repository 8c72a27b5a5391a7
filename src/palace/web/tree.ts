/**
 * The memory tree, expanded one directory at a time (each directory is one request of at most 500
 * entries, with "more" for the rest), with descriptions and token estimates. system/ starts open.
 */
import { useEffect, useState } from 'preact/hooks';
import type { TreeReply } from '../api-types.js';
import { html } from './html.js';
import type { Source } from './source.js';
import { errorText, formatTokens } from './util.js';

interface TreeProps {
  source: Source;
  agent: string;
  at: string | null;
  tick: number;
  selected: string | null;
  onOpen: (path: string) => void;
}

type Loaded = Map<string, TreeReply>;

export function Tree(p: TreeProps) {
  const [dirs, setDirs] = useState<Loaded>(new Map());
  const [open, setOpen] = useState<Set<string>>(new Set(['system']));
  const [error, setError] = useState<string | null>(null);
  const fetchDir = (dir: string, offset = 0) =>
    p.source.get<TreeReply>('tree', { agent: p.agent, dir, at: p.at ?? undefined, offset });

  useEffect(() => {
    let current = true;
    const wanted = ['', ...open];
    Promise.all(wanted.map((d) => fetchDir(d).catch(() => null))).then(
      (replies) => {
        if (!current) return;
        const next: Loaded = new Map();
        replies.forEach((r, i) => r && next.set(wanted[i] as string, r));
        setDirs(next);
        setError(next.has('') ? null : 'The tree could not be loaded.');
      },
      (err: unknown) => current && setError(errorText(err)),
    );
    return () => {
      current = false;
    };
  }, [p.agent, p.at, p.tick]);

  const toggle = (dir: string) => {
    const next = new Set(open);
    if (next.has(dir)) next.delete(dir);
    else {
      next.add(dir);
      if (!dirs.has(dir))
        fetchDir(dir).then(
          (r) => setDirs((m) => new Map(m).set(dir, r)),
          (err: unknown) => setError(errorText(err)),
        );
    }
    setOpen(next);
  };
  const more = (dir: string, r: TreeReply) =>
    fetchDir(dir, r.offset + r.entries.length).then((n) =>
      setDirs((m) => new Map(m).set(dir, { ...n, offset: r.offset, entries: [...r.entries, ...n.entries] })),
    );

  const renderDir = (dir: string, depth: number): unknown => {
    const r = dirs.get(dir);
    if (!r) return html`<li class="muted" style=${{ paddingLeft: `${depth}em` }}>loading…</li>`;
    return html`${r.entries.map((e) =>
      e.type === 'dir'
        ? html`<li key=${e.path}><button class="tree-row tree-dir" data-path=${e.path} aria-expanded=${open.has(e.path)} style=${{ paddingLeft: `${depth + 0.4}em` }} onClick=${() => toggle(e.path)}>
            <span class="caret">${open.has(e.path) ? '▾' : '▸'}</span><span class="name">${e.name}/</span>
            <span class="meta">${e.files} ${e.files === 1 ? 'file' : 'files'} · ${formatTokens(e.tokens)} tok</span></button>
            ${open.has(e.path) ? html`<ul>${renderDir(e.path, depth + 1)}</ul>` : null}</li>`
        : html`<li key=${e.path}><button class=${`tree-row tree-file${p.selected === e.path ? ' selected' : ''}`} data-path=${e.path} style=${{ paddingLeft: `${depth + 1.4}em` }} onClick=${() => p.onOpen(e.path)} title=${e.description ?? ''}>
            <span class="name">${e.name}</span><span class="meta">${formatTokens(e.tokens)} tok</span>
            ${e.description ? html`<span class="desc">${e.description}</span>` : null}</button></li>`,
    )}
    ${r.total > r.entries.length ? html`<li><button class="more" style=${{ paddingLeft: `${depth + 1.4}em` }} onClick=${() => more(dir, r)}>${r.total - r.entries.length} more…</button></li>` : null}`;
  };

  return html`<nav class="tree" aria-label="memory files">
    ${error ? html`<div class="problem">${error}</div>` : null}
    ${dirs.get('')?.total === 0 ? html`<p class="muted">No files at this commit.</p>` : null}
    <ul>${renderDir('', 0)}</ul></nav>`;
}
