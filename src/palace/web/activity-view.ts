/** The background side: reflection runs and transcript cursors, one transcript's lines, and sync state. */
import type { ReflectionReply, SyncReply, TranscriptReply } from '../api-types.js';
import { Problem, useLoad } from './common.js';
import { html } from './html.js';
import type { Source } from './source.js';
import { formatTokens, short, when, type ReviewedTranscript } from './util.js';

export function ReflectionView(p: {
  source: Source;
  agent: string;
  tick: number;
  onTranscript: (t: ReviewedTranscript) => void;
}) {
  const r = useLoad(() => p.source.get<ReflectionReply>('reflection', { agent: p.agent }), [p.agent, p.tick]);
  const d = r.data;
  return html`<section class="reflection"><h2>Reflection</h2><${Problem} text=${r.error} />
    <h3>Runs <span class="muted">(newest first)</span></h3>
    ${d && d.runs.length === 0 ? html`<p class="muted">No background runs recorded yet.</p>` : null}
    ${
      d && d.runs.length > 0
        ? html`<table class="grid runs"><thead><tr><th>started</th><th>kind</th><th>outcome</th><th>steps</th><th>tokens in / out</th><th>duration</th><th>model</th></tr></thead>
      <tbody>${d.runs.map(
        (
          run,
        ) => html`<tr><td>${when(run.startedAt)}</td><td>${run.kind}</td><td><span class=${`badge outcome outcome-${run.outcome.replace(/[^a-z_]/g, '')}`}>${run.outcome}</span></td>
        <td>${run.steps}</td><td>${formatTokens(run.inputTokens)} / ${formatTokens(run.outputTokens)}</td><td>${(run.durationMs / 1000).toFixed(1)} s</td><td>${run.model}</td></tr>`,
      )}</tbody></table>`
        : null
    }
    <h3>Transcript cursors</h3>
    ${d && d.cursors.length === 0 ? html`<p class="muted">No transcripts.</p>` : null}
    ${
      d && d.cursors.length > 0
        ? html`<table class="grid cursors"><thead><tr><th>conversation</th><th>reflected through</th><th>steps since</th><th>last started</th><th>last succeeded</th></tr></thead>
      <tbody>${d.cursors.map(
        (
          c,
        ) => html`<tr><td><button class="link" onClick=${() => p.onTranscript({ conversation: c.conversation, from: Math.max(1, c.reflectedThroughLine - 5), to: c.lines })}>${c.conversation}</button></td>
        <td>line ${c.reflectedThroughLine} of ${c.lines}</td><td>${c.stepsSinceLastReflection} of ${c.totalSteps}</td>
        <td>${c.lastStartedAt ? when(c.lastStartedAt) : '—'}</td><td>${c.lastSucceededAt ? when(c.lastSucceededAt) : '—'}</td></tr>`,
      )}</tbody></table>`
        : null
    }
  </section>`;
}

export function TranscriptModal(p: { source: Source; agent: string; target: ReviewedTranscript; onClose: () => void }) {
  const from = Math.max(1, p.target.from - 2);
  const t = useLoad(
    () =>
      p.source.get<TranscriptReply>('transcript', {
        agent: p.agent,
        conversation: p.target.conversation,
        from,
        to: p.target.to + 2,
      }),
    [p.agent, p.target],
  );
  return html`<div class="modal" role="dialog" aria-label="transcript"><div class="modal-body">
    <header class="row"><h3>${p.target.conversation}: lines ${p.target.from}–${p.target.to}</h3><button onClick=${p.onClose}>Close</button></header>
    <${Problem} text=${t.error} />
    ${
      t.data
        ? html`<ol class="transcript">${t.data.rows.map(
            (
              r,
            ) => html`<li class=${`row-${r.kind}${r.line >= p.target.from && r.line <= p.target.to ? ' reviewed' : ''}`}>
      <span class="ln">${r.line}</span><span class="kind">${r.kind}</span><span class="text">${r.text}</span></li>`,
          )}</ol>
      ${t.data.rows.length === 0 ? html`<p class="muted">Those lines are not in the transcript (${t.data.lines} lines).</p>` : null}`
        : null
    }
  </div></div>`;
}

export function SyncView(p: { source: Source; agent: string; tick: number }) {
  const s = useLoad(() => p.source.get<SyncReply>('sync', { agent: p.agent }), [p.agent, p.tick]);
  const d = s.data;
  return html`<section class="sync"><h2>Sync</h2><${Problem} text=${s.error} />
    ${
      d
        ? html`<table class="grid kv"><tbody>
      <tr><th>remote</th><td>${d.remote.url ?? 'none (local memory)'}</td></tr>
      <tr><th>upstream</th><td>${d.remote.upstream ?? '—'}</td></tr>
      <tr><th>ahead / behind</th><td>${d.remote.ahead ?? '?'} / ${d.remote.behind ?? '?'} <span class="muted">(as of the last fetch)</span></td></tr>
      <tr><th>work tree</th><td>${d.dirty ? 'uncommitted changes' : 'clean'}</td></tr>
      <tr><th>mirror</th><td>${d.mirror.url ?? 'none'}</td></tr>
      <tr><th>last mirror push</th><td>${
        d.mirror.last
          ? html`<span class=${d.mirror.last.ok ? 'ok' : 'bad'}>${d.mirror.last.ok ? 'succeeded' : 'failed'}</span> ${d.mirror.last.at} (${d.mirror.last.trigger}, ${short(d.mirror.last.commit)})
        ${d.mirror.last.ok ? null : html`<pre class="raw">${d.mirror.last.output}</pre>`}`
          : '—'
      }</td></tr>
    </tbody></table>
    <h3>Remote-tracking moves</h3>
    ${d.tracking.length === 0 ? html`<p class="muted">No pushes or fetches recorded.</p>` : html`<ul>${d.tracking.map((t) => html`<li><span class="muted">${t.date}</span> ${t.what}</li>`)}</ul>`}
    ${d.mirror.log.length > 0 ? html`<h3>Mirror push log</h3><pre class="raw">${d.mirror.log.join('\n')}</pre>` : null}`
        : null
    }
  </section>`;
}
