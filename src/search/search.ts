/**
 * `memory.search`: checks the query and options, finds the commit to search (HEAD by default, read from
 * git/committed-read.ts, the ref files when they answer), brings the index there, ranks (full text, semantic or
 * both) and turns rows into hits with a line and a snippet. A corrupt index file is removed and the search
 * runs again on a rebuilt one.
 */
import { MemoryError } from '../errors.js';
import { resolveGitCommonDir } from '../git/common-dir.js';
import { headCommit } from '../git/committed-read.js';
import { resolveRevision } from '../git/revision.js';
import type { GitRunner } from '../git/runner.js';
import { readGitmemConfig } from '../llm/config.js';
import { resolveEmbeddingModel, type EmbeddingChoice } from '../llm/embedding.js';
import { bestLine } from './best-line.js';
import { buildIfAbsent } from './fresh-build.js';
import { hitTexts } from './hit-text.js';
import { dropConnection, indexConnection, isCorruption } from './open-store.js';
import { checkOptions, type CheckedOptions } from './options.js';
import { checkQuery, parseQuery, type ParsedQuery } from './query.js';
import { fuse, semanticRank, type Ranked } from './semantic.js';
import { MovedMeanwhile, SearchStore } from './store.js';
import { mapRevision, syncMap } from './sync.js';
import type { RepoRef } from './blob-read.js';
import type { SearchHit, SearchMode } from './types.js';

/** What a search needs from the composition root. */
export interface SearchContext {
  git: GitRunner;
  memoryDir: string;
  home: string;
  env: Record<string, string | undefined>;
  /** The configured base URL of openai / openai-compatible models (config.ts, GITMEM_OPENAI_BASE_URL). */
  openaiBaseUrl?: string | undefined;
}

/** The commit to search, or null for HEAD of a repository without commits (nothing to find). */
async function targetCommit(ctx: SearchContext, at: string | undefined): Promise<string | null> {
  return at === undefined ? headCommit(ctx.git, ctx.memoryDir) : resolveRevision(ctx.git, ctx.memoryDir, at);
}

async function toHits(
  repo: RepoRef,
  rows: ReadonlyArray<Ranked & { oid: string }>,
  parsed: ParsedQuery,
): Promise<SearchHit[]> {
  const texts = await hitTexts(repo, rows);
  return rows.flatMap((r) => {
    const t = texts.get(r.oid);
    if (!t) return [];
    const { line, snippet } = bestLine(t.text, parsed.items);
    return [{ path: r.path, line, snippet, score: Math.round(r.score * 1e6) / 1e6, description: t.description }];
  });
}

interface Plan {
  parsed: ParsedQuery;
  query: string;
  options: CheckedOptions;
  mode: SearchMode;
  embeddings: EmbeddingChoice | undefined;
}

/**
 * Ranks within one scope. The rows (and their blob ids) are taken inside a read transaction that first checks
 * the map still names `target` (scope `head`), so another process moving it cannot mix two trees into one
 * answer; their text is then read by blob id, which never changes.
 */
async function rankIn(
  repo: RepoRef,
  store: SearchStore,
  scope: 'head' | 'at',
  target: string,
  plan: Plan,
): Promise<SearchHit[]> {
  const { limit, pathOk } = plan.options;
  const depth = plan.mode === 'hybrid' ? Math.max(limit, 50) : limit;
  const fulltext = (): Ranked[] =>
    plan.mode === 'semantic' || plan.parsed.match === ''
      ? []
      : store.rank(plan.parsed.match, scope, depth, pathOk).map((r) => ({ path: r.path, id: r.id, score: -r.rank }));
  let semantic: Ranked[] = [];
  if (plan.mode !== 'fulltext' && plan.embeddings) {
    const rows = store.scopeRows(scope).filter((r) => !pathOk || pathOk(r.path));
    semantic = await semanticRank(repo, store, plan.embeddings, rows, plan.query, depth);
  }
  const rows = store.db.transaction(() => {
    if (scope === 'head' && store.mappedCommit() !== target) throw new MovedMeanwhile();
    const ranked =
      plan.mode === 'fulltext' ? fulltext() : plan.mode === 'semantic' ? semantic : fuse([fulltext(), semantic], limit);
    const oids = store.oids(ranked.map((r) => r.id));
    return ranked.flatMap((r) => {
      const oid = oids.get(r.id);
      return oid === undefined ? [] : [{ ...r, oid }];
    });
  })();
  return toHits(repo, rows, plan.parsed);
}

async function searchOnce(ctx: SearchContext, target: string, plan: Plan): Promise<SearchHit[]> {
  const commonDir = resolveGitCommonDir(ctx.memoryDir);
  const repo = { git: ctx.git, memoryDir: ctx.memoryDir };
  await buildIfAbsent(repo, commonDir, target);
  const store = new SearchStore(indexConnection(commonDir).db);
  if (plan.options.at === undefined || store.mappedCommit() === target) {
    for (let attempt = 0; attempt < 3; attempt++) {
      await syncMap(repo, store, target);
      try {
        return await rankIn(repo, store, 'head', target, plan);
      } catch (err) {
        if (!(err instanceof MovedMeanwhile)) throw err;
      }
    }
  }
  await mapRevision(repo, store, target);
  return rankIn(repo, store, 'at', target, plan);
}

async function planFor(ctx: SearchContext, query: string, options: CheckedOptions): Promise<Plan> {
  const config = readGitmemConfig(ctx.home);
  const configured = config['embeddings'] !== undefined;
  const mode = options.mode ?? (configured ? 'hybrid' : 'fulltext');
  if (mode !== 'fulltext' && !configured) {
    throw new MemoryError(
      'MODEL_NOT_CONFIGURED',
      `search mode ${mode} needs "embeddings": "<provider:model>" in $GITMEM_HOME/config`,
    );
  }
  const embeddings =
    mode === 'fulltext'
      ? undefined
      : await resolveEmbeddingModel({ config, env: ctx.env, openaiBaseUrl: ctx.openaiBaseUrl });
  return { parsed: parseQuery(query), query, options, mode, embeddings };
}

/**
 * Searches the memory at a revision.
 * @example await searchMemory(ctx, 'coffee preference', { limit: 5, paths: 'notes/**' })
 */
export async function searchMemory(ctx: SearchContext, query: unknown, options?: unknown): Promise<SearchHit[]> {
  const plan = await planFor(ctx, checkQuery(query), checkOptions(options));
  const target = await targetCommit(ctx, plan.options.at);
  if (target === null) return [];
  const commonDir = resolveGitCommonDir(ctx.memoryDir);
  try {
    return await searchOnce(ctx, target, plan);
  } catch (err) {
    if (!isCorruption(err)) throw err;
    dropConnection(commonDir, true); // a torn or foreign file: rebuild from git
    return searchOnce(ctx, target, plan);
  }
}
