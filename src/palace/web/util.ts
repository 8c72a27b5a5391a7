/** Small pure helpers of the page: short ids, dates, trailers, the writer labels. */
import type { Writer } from '../api-types.js';

export const short = (sha: string | null | undefined): string => (sha ? sha.slice(0, 7) : '—');

export function when(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
}

export const firstLine = (text: string): string => text.split('\n')[0] ?? '';

export const WRITER_LABEL: Readonly<Record<Writer, string>> = {
  agent: 'primary agent',
  worker: 'memory worker',
  reflection: 'reflection',
  shell: 'shell',
  sync: 'sync',
};

export interface ReviewedTranscript {
  conversation: string;
  from: number;
  to: number;
}

/**
 * The `Reviewed-Transcript: <conversation> lines <a>-<b>` trailers of a commit message.
 * @example reviewedTranscripts('x\n\nReviewed-Transcript: c1 lines 1-4') // [{ conversation: 'c1', from: 1, to: 4 }]
 */
export function reviewedTranscripts(message: string): ReviewedTranscript[] {
  const out: ReviewedTranscript[] = [];
  for (const line of message.split('\n')) {
    const m = /^Reviewed-Transcript:\s*(\S.*?)\s+lines\s+(\d+)-(\d+)\s*$/.exec(line);
    if (m) out.push({ conversation: m[1] as string, from: Number(m[2]), to: Number(m[3]) });
  }
  return out;
}

export function formatTokens(n: number): string {
  return n >= 10_000 ? `${(n / 1000).toFixed(1)}k` : String(n);
}

export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
