/** Pieces every view uses: the loader hook, the diff view, the writer badge, the reason form. */
import { useEffect, useState } from 'preact/hooks';
import type { DiffReply, Writer } from '../api-types.js';
import { parseUnifiedDiff } from './diff.js';
import { html } from './html.js';
import { errorText, WRITER_LABEL } from './util.js';

export interface Loaded<T> {
  data: T | null;
  error: string | null;
  loading: boolean;
}

/** Runs `load` whenever `deps` change; a stale answer never overwrites a newer one. */
export function useLoad<T>(load: () => Promise<T> | null, deps: unknown[]): Loaded<T> {
  const [state, setState] = useState<Loaded<T>>({ data: null, error: null, loading: true });
  useEffect(() => {
    let current = true;
    const p = load();
    if (p === null) {
      setState({ data: null, error: null, loading: false });
      return;
    }
    setState((s) => ({ ...s, loading: true }));
    p.then(
      (data) => current && setState({ data, error: null, loading: false }),
      (err: unknown) => current && setState({ data: null, error: errorText(err), loading: false }),
    );
    return () => {
      current = false;
    };
  }, deps);
  return state;
}

export function WriterBadge({ writer }: { writer: Writer }) {
  return html`<span class=${`badge writer-${writer}`} title="who wrote it">${WRITER_LABEL[writer] ?? writer}</span>`;
}

export function Problem({ text }: { text: string | null }) {
  return text ? html`<div class="problem" role="alert">${text}</div>` : null;
}

/** Rows of a diff beyond this are behind a "show all" button (a huge diff would freeze the page). */
const SHOWN_ROWS = 2000;

export function DiffView({ diff }: { diff: DiffReply }) {
  const [all, setAll] = useState(false);
  const rows = parseUnifiedDiff(diff.text);
  const shown = all ? rows : rows.slice(0, SHOWN_ROWS);
  return html`<div class="diff">
    <ul class="diff-files">${diff.files.map(
      (
        f,
      ) => html`<li><span class=${`status status-${f.status}`}>${f.status}</span> ${f.oldPath ? `${f.oldPath} → ` : ''}${f.path}
      ${f.additions !== null ? html` <span class="adds">+${f.additions}</span> <span class="dels">−${f.deletions}</span>` : ''}</li>`,
    )}</ul>
    ${rows.length === 0 ? html`<p class="muted">No textual changes.</p>` : null}
    <table class="diff-rows"><tbody>${shown.map(
      (r) => html`<tr class=${`d-${r.kind}`}>
      <td class="ln">${r.oldLine ?? ''}</td><td class="ln">${r.newLine ?? ''}</td>
      <td class="code">${r.kind === 'add' ? '+' : r.kind === 'del' ? '−' : ' '}${r.text}</td></tr>`,
    )}</tbody></table>
    ${rows.length > shown.length ? html`<button onClick=${() => setAll(true)}>Show all ${rows.length} lines</button>` : null}
    ${diff.truncated ? html`<p class="muted">The diff was cut at its size limit.</p>` : null}
  </div>`;
}

/** Asks for a reason, then runs `action` with it; the reason is the commit message of what it does. */
export function ReasonForm(props: {
  label: string;
  placeholder: string;
  action: (reason: string) => Promise<void>;
  onCancel: () => void;
}) {
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = (e: Event) => {
    e.preventDefault();
    if (reason.trim() === '') return setError('A reason is required: it becomes the commit message.');
    setBusy(true);
    props.action(reason.trim()).catch((err: unknown) => {
      setBusy(false);
      setError(errorText(err));
    });
  };
  return html`<form class="reason-form" onSubmit=${submit}>
    <textarea name="reason" rows="2" placeholder=${props.placeholder} value=${reason} onInput=${(e: Event) => setReason((e.target as HTMLTextAreaElement).value)}></textarea>
    <div class="row"><button type="submit" class="primary" disabled=${busy}>${props.label}</button>
    <button type="button" onClick=${props.onCancel}>Cancel</button></div>
    <${Problem} text=${error} />
  </form>`;
}
