/**
 * The log of the whole memory: reason, author, writer, merges of background writers, the files each commit
 * changed, `Reviewed-Transcript` trailers linked to the transcript lines they reviewed; paged 50 at a time.
 */
import { useEffect, useState } from 'preact/hooks';
import type { CommitInfo, DiffReply, HistoryReply } from '../api-types.js';
import { DiffView, Problem, ReasonForm, useLoad, WriterBadge } from './common.js';
import { html } from './html.js';
import type { Source } from './source.js';
import { reviewedTranscripts, short, when, type ReviewedTranscript } from './util.js';

export interface LogProps {
  source: Source;
  agent: string;
  tick: number;
  onOpen: (path: string) => void;
  onTranscript: (t: ReviewedTranscript) => void;
  notify: (text: string) => void;
}

function Commit(p: LogProps & { c: CommitInfo }) {
  const [open, setOpen] = useState(false);
  const [reverting, setReverting] = useState(false);
  const diff = useLoad(
    () => (open ? p.source.get<DiffReply>('diff', { agent: p.agent, to: p.c.sha }) : null),
    [open, p.c.sha],
  );
  const c = p.c;
  const merge = c.parents.length > 1;
  const trailers = reviewedTranscripts(c.reason);
  const [subject = '', ...body] = c.reason.split('\n');
  return html`<li class="commit" data-sha=${c.sha}>
    <div class="row"><button class="link sha" onClick=${() => setOpen(!open)} title="show the diff"><code>${short(c.sha)}</code></button>
      <${WriterBadge} writer=${c.writer} />${merge ? html`<span class="badge merge">merge</span>` : null}
      <span class="author" title=${c.email}>${c.author}</span><span class="muted">${when(c.date)}</span></div>
    <div class="reason"><strong>${subject}</strong>${body.length > 0 && body.join('').trim() !== '' ? html`<pre class="reason-body">${body.join('\n').trim()}</pre>` : null}</div>
    ${trailers.length > 0 ? html`<div class="trailers">${trailers.map((t) => html`<button class="link transcript-link" onClick=${() => p.onTranscript(t)}>reviewed ${t.conversation} lines ${t.from}–${t.to}</button>`)}</div>` : null}
    <div class="files">${c.files.slice(0, 20).map((f) => html`<button class="link file-link" onClick=${() => f.status !== 'D' && p.onOpen(f.path)}><span class=${`status status-${f.status}`}>${f.status}</span> ${f.path}</button>`)}
      ${c.files.length > 20 ? html`<span class="muted">and ${c.files.length - 20} more</span>` : null}</div>
    <div class="row actions"><button onClick=${() => setOpen(!open)}>${open ? 'Hide diff' : 'Diff'}</button>
      ${p.source.live ? html`<button class="revert" onClick=${() => setReverting(true)}>Revert this change…</button>` : null}</div>
    ${
      reverting
        ? html`<${ReasonForm} label="Revert" placeholder="Why revert this change?" onCancel=${() => setReverting(false)}
        action=${async (reason: string) => {
          const r = await p.source.post<{ commit: string }>('revert', p.agent, { sha: c.sha, reason });
          setReverting(false);
          p.notify(`Reverted ${short(c.sha)} in ${short(r.commit)}`);
        }} />`
        : null
    }
    ${open ? html`<${Problem} text=${diff.error} />${diff.data ? html`<${DiffView} diff=${diff.data} />` : null}` : null}
  </li>`;
}

export function LogView(p: LogProps) {
  const [pages, setPages] = useState<HistoryReply[]>([]);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    p.source.get<HistoryReply>('history', { agent: p.agent, limit: 50 }).then(
      (r) => current && setPages([r]),
      (err: unknown) => current && setError(String((err as Error).message)),
    );
    return () => {
      current = false;
    };
  }, [p.agent, p.tick]);
  const last = pages.at(-1);
  const more = () =>
    last &&
    p.source
      .get<HistoryReply>('history', { agent: p.agent, limit: 50, skip: last.skip + last.entries.length })
      .then((r) => setPages([...pages, r]));
  return html`<section class="log"><h2>Log</h2><${Problem} text=${error} />
    <ol class="commits">${pages.flatMap((pg) => pg.entries).map((c) => html`<${Commit} key=${c.sha} ...${p} c=${c} />`)}</ol>
    ${last?.more ? html`<button class="more" onClick=${more}>Older commits…</button>` : null}
  </section>`;
}
