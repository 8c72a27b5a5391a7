/**
 * The palace's page: header (agent, head, live state, search), the sidebar (core memory against its budget,
 * timeline, tree) and the main views (file, log, conflicts, reflection, sync, search). A move of main
 * seen on the change stream bumps `tick`, which every view reloads on.
 */
import { useCallback, useEffect, useState } from 'preact/hooks';
import type { AgentsReply, SummaryReply, UpdateEvent } from '../api-types.js';
import { ReflectionView, SyncView, TranscriptModal } from './activity-view.js';
import { Problem, useLoad } from './common.js';
import { ConflictsView } from './conflicts-view.js';
import { FileView } from './file-view.js';
import { html } from './html.js';
import { LogView } from './log-view.js';
import { SearchView } from './search-view.js';
import type { Source } from './source.js';
import { Timeline } from './timeline.js';
import { Tree } from './tree.js';
import { formatTokens, short, type ReviewedTranscript, WRITER_LABEL } from './util.js';

const TABS = ['file', 'log', 'conflicts', 'reflection', 'sync', 'search'] as const;
type Tab = (typeof TABS)[number];
const TAB_LABEL: Record<Tab, string> = {
  file: 'File',
  log: 'Log',
  conflicts: 'Conflicts',
  reflection: 'Reflection',
  sync: 'Sync',
  search: 'Search',
};

/** The last three notices, each gone after 8 s (a write's own notice and the change it caused both show). */
function useToasts(): [Array<{ id: number; text: string }>, (text: string) => void, (id: number) => void] {
  const [toasts, setToasts] = useState<Array<{ id: number; text: string }>>([]);
  const dismiss = useCallback((id: number) => setToasts((list) => list.filter((t) => t.id !== id)), []);
  const add = useCallback((text: string) => {
    const id = Date.now() + Math.random();
    setToasts((list) => [...list.slice(-2), { id, text }]);
    setTimeout(() => dismiss(id), 8000);
  }, []);
  return [toasts, add, dismiss];
}

function Budget({ system }: { system: SummaryReply['system'] }) {
  const share = system.budget > 0 ? system.tokens / system.budget : 0;
  return html`<div class=${`budget${share > 1 ? ' over' : share > 0.8 ? ' near' : ''}`} title=${system.files.map((f) => `${f.path}: ${f.tokens}`).join('\n')}>
    <div class="row"><span>${system.label}</span><span class="muted">${formatTokens(system.tokens)} of ${formatTokens(system.budget)} tokens</span></div>
    <div class="bar" role="meter" aria-valuemin="0" aria-valuemax=${system.budget} aria-valuenow=${system.tokens}><div class="fill" style=${{ width: `${Math.min(100, share * 100).toFixed(1)}%` }}></div></div>
  </div>`;
}

function Header(p: {
  source: Source;
  agents: string[];
  agent: string;
  head: string | null;
  connected: boolean;
  onAgent: (a: string) => void;
  onSearch: (q: string) => void;
}) {
  const [q, setQ] = useState('');
  return html`<header class="top">
    <h1>Memory Palace</h1>
    <select aria-label="agent" value=${p.agent} onChange=${(e: Event) => p.onAgent((e.target as HTMLSelectElement).value)}>${p.agents.map((a) => html`<option value=${a}>${a}</option>`)}</select>
    <span class="muted">HEAD <code class="head">${short(p.head)}</code></span>
    <span class=${`live ${p.source.live ? (p.connected ? 'on' : 'off') : 'export'}`}>${p.source.live ? (p.connected ? '● live' : '○ reconnecting') : 'export (read only)'}</span>
    <form class="search-form" role="search" onSubmit=${(e: Event) => {
      e.preventDefault();
      p.onSearch(q);
    }}>
      <input type="search" name="q" placeholder="Search memory…" value=${q} onInput=${(e: Event) => setQ((e.target as HTMLInputElement).value)} />
    </form>
  </header>`;
}

interface MainProps {
  source: Source;
  agent: string;
  tick: number;
  notify: (text: string) => void;
  tab: Tab;
  path: string | null;
  at: string | null;
  event: UpdateEvent | null;
  head: string | null;
  query: string;
  open: (path: string, at?: string | null) => void;
  onTranscript: (t: ReviewedTranscript) => void;
}

function MainView(p: MainProps) {
  const common = { source: p.source, agent: p.agent, tick: p.tick, notify: p.notify };
  if (p.tab === 'file')
    return p.path
      ? html`<${FileView} ...${common} path=${p.path} at=${p.at} event=${p.event} onOpen=${(x: string) => p.open(x)} />`
      : html`<p class="muted empty">Pick a file in the tree.</p>`;
  if (p.tab === 'log')
    return html`<${LogView} ...${common} onOpen=${(x: string) => p.open(x, null)} onTranscript=${p.onTranscript} />`;
  if (p.tab === 'conflicts') return html`<${ConflictsView} ...${common} head=${p.head} />`;
  if (p.tab === 'reflection') return html`<${ReflectionView} ...${common} onTranscript=${p.onTranscript} />`;
  if (p.tab === 'sync') return html`<${SyncView} ...${common} />`;
  return html`<${SearchView} ...${common} query=${p.query} at=${p.at} onOpen=${p.open} />`;
}

export function App({ source }: { source: Source }) {
  const agents = useLoad(() => source.get<AgentsReply>('agents'), []);
  const [agent, setAgent] = useState('');
  const [tab, setTab] = useState<Tab>('file');
  const [path, setPath] = useState<string | null>(null);
  const [at, setAt] = useState<string | null>(null);
  const [tick, setTick] = useState(0);
  const [event, setEvent] = useState<UpdateEvent | null>(null);
  const [connected, setConnected] = useState(false);
  const [query, setQuery] = useState('');
  const [toasts, setToast, dismiss] = useToasts();
  const [transcript, setTranscript] = useState<ReviewedTranscript | null>(null);
  useEffect(() => {
    if (agents.data && agent === '') setAgent(agents.data.current);
  }, [agents.data]);
  useEffect(() => subscribeToMain(source, agent, { setEvent, setTick, setToast, setConnected }), [agent]);
  const summary = useLoad(() => (agent ? source.get<SummaryReply>('summary', { agent }) : null), [agent, tick]);
  const notify = useCallback((text: string) => {
    setToast(text);
    setTick((t) => t + 1);
  }, []);
  const open = (p: string, where: string | null = at) => {
    setPath(p);
    setAt(where);
    setTab('file');
  };
  const switchAgent = (a: string) => {
    [setPath, setAt, setEvent].forEach((set) => set(null));
    setAgent(a);
  };
  const s = summary.data;
  return html`<div class="palace">
    <${Header} source=${source} agents=${agents.data?.agents ?? []} agent=${agent} head=${s?.head ?? null} connected=${connected} onAgent=${switchAgent}
      onSearch=${(q: string) => {
        setQuery(q);
        setTab('search');
      }} />
    <${Problem} text=${agents.error ?? summary.error} />
    <div class="body">
      <${Side} source=${source} agent=${agent} summary=${s} at=${at} tick=${tick} path=${path} onAt=${setAt} onOpen=${(p: string) => open(p)} />
      <main class="main">
        <nav class="tabs" aria-label="views">${TABS.map((t) => html`<button class=${tab === t ? 'active' : ''} data-tab=${t} onClick=${() => setTab(t)}>${TAB_LABEL[t]}</button>`)}</nav>
        ${
          agent
            ? html`<${MainView} source=${source} agent=${agent} tick=${tick} notify=${notify} tab=${tab} path=${path} at=${at} event=${event} head=${s?.head ?? null}
          query=${query} open=${open} onTranscript=${setTranscript} />`
            : null
        }
      </main>
    </div>
    <div class="toasts">${toasts.map((t) => html`<div key=${t.id} class="toast" role="status" onClick=${() => dismiss(t.id)}>${t.text}</div>`)}</div>
    ${transcript ? html`<${TranscriptModal} source=${source} agent=${agent} target=${transcript} onClose=${() => setTranscript(null)} />` : null}
  </div>`;
}

interface SideProps {
  source: Source;
  agent: string;
  summary: SummaryReply | null | undefined;
  at: string | null;
  tick: number;
  path: string | null;
  onAt: (at: string | null) => void;
  onOpen: (path: string) => void;
}

/** The left column: the core's budget, the timeline, the as-of note and the tree. */
function Side({ source, agent, summary: s, at, tick, path, onAt, onOpen }: SideProps) {
  return html`<aside class="side">
    ${s ? html`<${Budget} system=${s.system} />` : null}
    ${s && source.live ? html`<${Timeline} source=${source} agent=${agent} total=${s.commits} head=${s.head} onAt=${onAt} />` : null}
    ${at ? html`<div class="as-of-note">Showing the tree as of <code>${short(at)}</code></div>` : null}
    ${agent ? html`<${Tree} source=${source} agent=${agent} at=${at} tick=${tick} selected=${path} onOpen=${onOpen} />` : null}
  </aside>`;
}

interface MainMovedSetters {
  setEvent: (e: UpdateEvent) => void;
  setTick: (f: (t: number) => number) => void;
  setToast: (text: string) => void;
  setConnected: (connected: boolean) => void;
}

/** Follows main's moves for one agent; the returned function unsubscribes. */
function subscribeToMain(source: Source, agent: string, set: MainMovedSetters): (() => void) | undefined {
  if (agent === '') return undefined;
  return source.subscribe(
    agent,
    (e) => {
      set.setEvent(e);
      set.setTick((t) => t + 1);
      set.setToast(`main moved: ${WRITER_LABEL[e.writer]} → ${short(e.commit)} (${e.affected_paths.length} file(s))`);
    },
    set.setConnected,
  );
}
