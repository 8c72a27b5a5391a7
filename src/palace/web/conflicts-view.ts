/**
 * Kept conflict branches: what each changed since it left main, and the two ways to settle one — drop it
 * (main's side; its tip stays under refs/gitmem/backup/) or take the branch's side (one commit with the
 * reason typed in). Files that cannot be taken exactly are named, and the action is then not offered.
 */
import { useState } from 'preact/hooks';
import type { KeptBranchInfo, KeptBranchReply } from '../api-types.js';
import { DiffView, Problem, ReasonForm, useLoad } from './common.js';
import { html } from './html.js';
import type { Source } from './source.js';
import { short, when } from './util.js';

export interface ConflictsProps {
  source: Source;
  agent: string;
  tick: number;
  head: string | null;
  notify: (text: string) => void;
}

function Detail(p: ConflictsProps & { branch: string; onDone: () => void }) {
  const d = useLoad(
    () => p.source.get<KeptBranchReply>('conflict', { agent: p.agent, branch: p.branch }),
    [p.agent, p.branch, p.tick],
  );
  const [action, setAction] = useState<'drop' | 'take' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const drop = (b: KeptBranchReply) =>
    p.source.post<{ backupRef: string }>('conflicts/drop', p.agent, { branch: b.branch, head: b.head }).then(
      (r) => {
        p.notify(`Dropped ${b.branch}; its tip stays at ${r.backupRef}`);
        p.onDone();
      },
      (err: unknown) => setError(String((err as Error).message)),
    );
  if (d.error) return html`<${Problem} text=${d.error} />`;
  const b = d.data;
  if (!b) return html`<p class="muted">loading…</p>`;
  const blocked = b.take.filter((f) => f.problem);
  return html`<div class="conflict-detail">
    <h3>${b.branch}</h3>
    <p class="muted">${b.kind} · ${b.commits} commit(s) not on main · left main at <code>${short(b.base)}</code> · tip <code>${short(b.head)}</code></p>
    <ol class="commits">${b.log.map((c) => html`<li><code>${short(c.sha)}</code> ${c.subject}</li>`)}</ol>
    <h4>Taking the branch's side would</h4>
    <ul>${b.take.map((f) => html`<li>${f.action === 'delete' ? 'delete' : 'write'} <code>${f.path}</code>${f.problem ? html` <span class="problem-inline">— cannot: it ${f.problem}</span>` : null}</li>`)}</ul>
    ${
      p.source.live
        ? html`<div class="row actions">
      <button class="drop" onClick=${() => setAction('drop')}>Drop branch (keep main)…</button>
      <button class="take" disabled=${blocked.length > 0 || b.take.length === 0} onClick=${() => setAction('take')}>Take the branch's side…</button></div>`
        : null
    }
    ${
      action === 'drop'
        ? html`<div class="confirm">Main stays as it is; the branch is deleted and its tip kept under refs/gitmem/backup/ (no commit is made).
        <div class="row"><button class="primary confirm-drop" onClick=${() => drop(b)}>Drop it</button><button onClick=${() => setAction(null)}>Cancel</button></div>
        <${Problem} text=${error} /></div>`
        : null
    }
    ${
      action === 'take'
        ? html`<${ReasonForm} label="Take the branch" placeholder="Why is the branch right? (the commit message)" onCancel=${() => setAction(null)}
        action=${async (reason: string) => {
          const r = await p.source.post<{ commit: string }>('conflicts/take', p.agent, {
            branch: b.branch,
            head: b.head,
            main: p.head ?? '',
            reason,
          });
          p.notify(`Took ${b.branch} in ${short(r.commit)}`);
          p.onDone();
        }} />`
        : null
    }
    <h4>What the branch changed</h4>
    ${b.diff ? html`<${DiffView} diff=${b.diff} />` : null}
  </div>`;
}

export function ConflictsView(p: ConflictsProps) {
  const list = useLoad(
    () => p.source.get<{ branches: KeptBranchInfo[] }>('conflicts', { agent: p.agent }),
    [p.agent, p.tick],
  );
  const [selected, setSelected] = useState<string | null>(null);
  const branches = list.data?.branches ?? [];
  return html`<section class="conflicts"><h2>Kept conflict branches</h2><${Problem} text=${list.error} />
    ${list.data && branches.length === 0 ? html`<p class="muted">No kept branches: nothing is waiting to be reconciled.</p>` : null}
    <ul class="branches">${branches.map(
      (
        b,
      ) => html`<li key=${b.branch}><button class=${`link branch${selected === b.branch ? ' selected' : ''}`} data-branch=${b.branch} onClick=${() => setSelected(b.branch)}>${b.branch}</button>
      <span class="muted"> ${b.kind} · ${b.commits} commit(s) · ${when(b.date)} · ${b.files.length} file(s)</span><div class="reason">${b.subject}</div></li>`,
    )}</ul>
    ${selected && branches.some((b) => b.branch === selected) ? html`<${Detail} ...${p} branch=${selected} onDone=${() => setSelected(null)} />` : null}
  </section>`;
}
