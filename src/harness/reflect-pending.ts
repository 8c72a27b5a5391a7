/**
 * The background job a session's end (or its turn count) starts: for every recorded session of the agent
 * whose transcript grew since it was last reflected, stage the new part (read from its byte offset) into the
 * agent's transcript store and run one reflection over what is unreflected. A reflection that fails leaves
 * the session's `reflected` mark where it was, so the next job takes that part again; one job per agent at a
 * time (a lock file naming its process), and a job looks again before it stops, so a part recorded while it
 * ran is not left behind.
 */
import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { dreamExitCode, runDream, type DreamResult } from '../index.js';
import {
  appendRunLog,
  appendTranscript,
  readTranscript,
  syntheticConversationId,
  type TranscriptRow,
} from '../internals.js';
import { HARNESSES, isHarnessId, type HarnessId } from './catalogue.js';
import { listSessions, writeSession, type SessionRecord } from './sessions.js';

/** Passes over the sessions before the job stops (each catches what arrived during the one before). */
const PASSES = 3;

export interface ReflectJobOptions {
  home: string;
  agentId: string;
  agentDir: string;
  env: Record<string, string | undefined>;
  cwd: string;
  now?: () => Date;
  /** One line per session reflected (the job's own log). */
  log?: (line: string) => void;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the agent's job lock, or returns undefined when a live job holds it (a dead one's lock is taken over). */
function takeLock(agentDir: string): (() => void) | undefined {
  mkdirSync(join(agentDir, 'harness'), { recursive: true, mode: 0o700 });
  const path = join(agentDir, 'harness', 'reflect.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => unlinkSync(path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = Number.parseInt(readFileSync(path, 'utf8'), 10);
      if (Number.isSafeInteger(holder) && holder > 0 && alive(holder)) return undefined;
      unlinkSync(path);
    }
  }
  return undefined;
}

/** Stages a session's rows from its `staged` offset; returns the conversation they are in. */
function stage(o: ReflectJobOptions, s: SessionRecord): string {
  const type = HARNESSES[s.harness as HarnessId].transcripts;
  const conversationId = syntheticConversationId(type.source, s.transcript);
  const now = o.now ?? (() => new Date());
  const { rows, end } = type.parseFrom(s.transcript, s.staged, now);
  const companions: TranscriptRow[] = type.companions
    ? type.companions(s.transcript).flatMap((f) => type.parseFrom(f, 0, now).rows)
    : [];
  const seen = new Set(
    readTranscript(o.agentDir, conversationId)
      .map((r) => r.source_message_id)
      .filter(Boolean),
  );
  appendTranscript(
    o.agentDir,
    conversationId,
    [...rows, ...companions].filter((r) => !(r.source_message_id && seen.has(r.source_message_id))),
  );
  writeSession(o.agentDir, { ...s, staged: end, offset: Math.max(s.offset, end) });
  return conversationId;
}

function logFailure(o: ReflectJobOptions, s: SessionRecord, message: string, startedAt: Date): void {
  appendRunLog(o.agentDir, {
    kind: 'harness-reflection',
    startedAt: startedAt.toISOString(),
    durationMs: Date.now() - startedAt.getTime(),
    steps: 0,
    inputTokens: 0,
    outputTokens: 0,
    outcome: 'failed',
    model: '',
    harness: s.harness,
    session: s.sessionId,
    error: message,
  });
}

/** Reflects one session; false when it failed (its part stays owed to the next job). */
async function reflectOne(o: ReflectJobOptions, s: SessionRecord): Promise<boolean> {
  const startedAt = new Date();
  try {
    const conversationId = stage(o, s);
    const staged = listSessions(o.agentDir).find((r) => r.harness === s.harness && r.sessionId === s.sessionId) ?? s;
    const r: DreamResult = await runDream({
      home: o.home,
      env: o.env,
      cwd: o.cwd,
      agentId: o.agentId,
      from: conversationId,
      stream: false,
    });
    o.log?.(`${s.harness} ${s.sessionId}: ${r.message.split('\n')[0] ?? ''}`);
    if (dreamExitCode(r) === 0) return (writeSession(o.agentDir, { ...staged, reflected: staged.staged }), true);
    logFailure(o, s, r.error?.message ?? r.message, startedAt);
  } catch (err) {
    o.log?.(`${s.harness} ${s.sessionId}: ${(err as Error).message}`);
    logFailure(o, s, (err as Error).message, startedAt);
  }
  return false;
}

/** Sessions owed a reflection: their transcript grew past what was reflected. */
function pending(agentDir: string): SessionRecord[] {
  return listSessions(agentDir).filter((s) => s.offset > s.reflected && isHarnessId(s.harness));
}

/**
 * Runs the job; false when another job of the agent holds the lock (it will look again before it stops).
 * @example await reflectPending({ home, agentId: 'a1', agentDir, env: process.env, cwd: process.cwd() })
 */
export async function reflectPending(o: ReflectJobOptions): Promise<boolean> {
  const release = takeLock(o.agentDir);
  if (release === undefined) return false;
  try {
    const failed = new Set<string>(); // tried once in this job: the next job tries again
    for (let pass = 0; pass < PASSES; pass++) {
      const owed = pending(o.agentDir).filter((s) => !failed.has(`${s.harness}\0${s.sessionId}`));
      if (owed.length === 0) break;
      for (const s of owed) if (!(await reflectOne(o, s))) failed.add(`${s.harness}\0${s.sessionId}`);
    }
  } finally {
    release();
  }
  return true;
}
