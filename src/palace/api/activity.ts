/**
 * The background side of an agent: reflection runs (`runs.jsonl`), the transcript cursor of each
 * conversation, lines of a transcript (what a `Reviewed-Transcript` trailer points at), and sync state
 * (remote, ahead/behind as of the last fetch, recent pushes and fetches, the mirror's last push). Nothing
 * here touches the network.
 */
import {
  handleGit,
  listConversations,
  mirrorStatus,
  readCursor,
  readNumberedTranscript,
  readRunLog,
} from '../../internals.js';
import type { CursorInfo, ReflectionReply, RunInfo, SyncReply, TranscriptReply } from '../api-types.js';
import { queryInt, requiredQuery, type ApiRequest } from './request.js';

/** Runs and conversations shown (the newest). */
const MAX_RUNS = 200;
const MAX_CONVERSATIONS = 200;
/** Transcript rows per answer, and characters of each row's text. */
const MAX_ROWS = 400;
const MAX_ROW_TEXT = 4000;

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const str = (v: unknown): string => (typeof v === 'string' ? v.slice(0, 500) : '');

function runInfo(e: Record<string, unknown>): RunInfo {
  return {
    kind: str(e['kind']),
    startedAt: str(e['startedAt']),
    durationMs: num(e['durationMs']),
    steps: num(e['steps']),
    inputTokens: num(e['inputTokens']),
    outputTokens: num(e['outputTokens']),
    outcome: str(e['outcome']),
    model: str(e['model']),
  };
}

export async function reflection(req: ApiRequest): Promise<ReflectionReply> {
  const dir = req.view.agentDir;
  const runs = readRunLog(dir)
    .slice(-MAX_RUNS)
    .reverse()
    .map((e) => runInfo(e as Record<string, unknown>));
  const cursors: CursorInfo[] = listConversations(dir)
    .slice(0, MAX_CONVERSATIONS)
    .map((conversation) => ({
      conversation,
      lines: readNumberedTranscript(dir, conversation).lines,
      ...readCursor(dir, conversation),
    }));
  return { runs, cursors };
}

export async function transcript(req: ApiRequest): Promise<TranscriptReply> {
  const conversation = requiredQuery(req, 'conversation');
  const from = queryInt(req, 'from', 1, 1, 100_000_000);
  const to = queryInt(req, 'to', from + MAX_ROWS - 1, from, 100_000_000);
  const { rows, lines } = readNumberedTranscript(req.view.agentDir, conversation);
  const picked = rows
    .filter((r) => r.line >= from && r.line <= Math.min(to, from + MAX_ROWS - 1))
    .map((r) => {
      const row = r.row;
      const text =
        row.kind === 'tool_call' ? `${row.name ?? 'tool'}(${row.argsText ?? ''}) → ${row.resultText ?? ''}` : row.text;
      return { line: r.line, kind: row.kind, text: text.slice(0, MAX_ROW_TEXT) };
    });
  return { conversation, lines, rows: picked };
}

async function trackingMoves(req: ApiRequest, upstream: string | null): Promise<SyncReply['tracking']> {
  if (upstream === null) return [];
  return (await req.view.memory.remote.moves({ limit: 10 })).map((m) => ({ date: m.date, what: m.what.slice(0, 300) }));
}

export async function sync(req: ApiRequest): Promise<SyncReply> {
  const memory = req.view.memory;
  const [remote, mirror, status] = await Promise.all([
    memory.remote.show(),
    mirrorStatus({ git: handleGit(memory), memoryDir: memory.memoryDir, lines: 30 }),
    memory.status(),
  ]);
  return {
    remote: { url: remote.url, upstream: remote.upstream, ahead: remote.ahead, behind: remote.behind },
    tracking: await trackingMoves(req, remote.upstream),
    mirror: { url: mirror.url, last: mirror.last, log: mirror.log },
    dirty: status.dirty,
  };
}
