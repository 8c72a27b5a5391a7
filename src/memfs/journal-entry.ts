/**
 * The journal's entry and recovery outcome, below journal.ts and journal-finish.ts so the finishing half
 * types them without importing the file that calls it (no import cycle); journal.ts re-exports both.
 */
import type { IndexInfoEntry } from '../git/commands/plumbing.js';

/** What .git/gitmem-write.json holds: the writer, and the commit it is about to publish. */
export interface JournalEntry {
  pid: number;
  /** Host and process start time of the writer (absent in entries of older versions). */
  hostname?: string;
  pidStart?: string;
  parent: string | null;
  commit: string;
  paths: string[];
  /** The index entries the commit sets (absent in entries of older versions). */
  index?: IndexInfoEntry[];
  subject: string;
}

/** What recovering an interrupted write did ('none': no entry was there). */
export type RecoveryOutcome = 'none' | 'rolled_forward' | 'already_published' | 'abandoned';
