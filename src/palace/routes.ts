/** The API's routes: one table per method, path → handler (`/<token>/api/<path>?agent=ID&…`). */
import { conflict, conflicts, dropConflict, takeConflict } from './api/conflicts.js';
import { reflection, sync, transcript } from './api/activity.js';
import { diff, file, history, summary, timeline, tree } from './api/reads.js';
import type { Handler } from './api/request.js';
import { search } from './api/search.js';
import { revert } from './api/writes.js';

export const GET_ROUTES: Readonly<Record<string, Handler>> = {
  summary,
  tree,
  file,
  history,
  diff,
  timeline,
  conflicts,
  conflict,
  reflection,
  transcript,
  sync,
  search,
};

export const POST_ROUTES: Readonly<Record<string, Handler>> = {
  revert,
  'conflicts/drop': dropConflict,
  'conflicts/take': takeConflict,
};

/** HTTP status of a refusal, by error code (anything unlisted is a 400: the request asked for something wrong). */
const STATUS: Readonly<Record<string, number>> = {
  FILE_NOT_FOUND: 404,
  UNKNOWN_REVISION: 404,
  MEMORY_DIR_MISSING: 404,
  REVERT_CONFLICT: 409,
  REPO_DIRTY: 409,
  REPO_CONFLICT: 409,
  FILE_EXISTS: 409,
  GIT_LOCKED: 409,
  LOCK_TIMEOUT: 409,
  NO_CHANGES: 409,
  READ_ONLY: 409,
  VALIDATION_FAILED: 409,
  SEARCH_UNAVAILABLE: 503,
  INTERNAL: 500,
};

export const statusOf = (code: string): number => STATUS[code] ?? 400;
