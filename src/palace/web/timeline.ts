/** The timeline: a slider over every commit (oldest left, HEAD right); the tree and files follow it. */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { TimelineReply } from '../api-types.js';
import { html } from './html.js';
import type { Source } from './source.js';
import { firstLine, short, when } from './util.js';

export function Timeline(p: {
  source: Source;
  agent: string;
  total: number;
  head: string | null;
  onAt: (sha: string | null) => void;
}) {
  const [position, setPosition] = useState(p.total - 1);
  const [shown, setShown] = useState<TimelineReply | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => {
    setPosition(p.total - 1);
    setShown(null);
  }, [p.agent, p.head, p.total]);
  const move = (pos: number) => {
    setPosition(pos);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      if (pos >= p.total - 1) {
        setShown(null);
        p.onAt(null);
        return;
      }
      p.source.get<TimelineReply>('timeline', { agent: p.agent, position: pos }).then(
        (r) => {
          setShown(r);
          p.onAt(r.commit?.sha ?? null);
        },
        () => undefined,
      );
    }, 150);
  };
  if (p.total < 2) return null;
  const atHead = position >= p.total - 1;
  return html`<div class="timeline">
    <label class="row"><span>Timeline</span><span class="muted">${atHead ? `HEAD ${short(p.head)}` : `${position + 1} of ${p.total}`}</span></label>
    <input type="range" min="0" max=${p.total - 1} value=${position} aria-label="timeline" onInput=${(e: Event) => move(Number((e.target as HTMLInputElement).value))} />
    ${
      !atHead && shown?.commit
        ? html`<div class="as-of">as of <code>${short(shown.commit.sha)}</code> ${when(shown.commit.date)}<div class="reason">${firstLine(shown.commit.reason)}</div>
      <button onClick=${() => move(p.total - 1)}>Back to HEAD</button></div>`
        : null
    }
  </div>`;
}
