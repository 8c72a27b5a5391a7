/**
 * Who a commit says made it: the one policy for every commit gitmem makes or has git make. An agent's own
 * writes carry the agent, gitmem's merges carry gitmem, a reflection's sub-agent carries the agent with a
 * `+reflection` address, an operator's write of a protected file (`gitmem protect write`) carries the
 * operator — so `git log --format=%ae` tells them apart. Pure; everyone may import it.
 */

/** An author (and committer) of a commit. */
export interface Identity {
  name: string;
  email: string;
}

/** The mail domain of every identity gitmem makes up (never a real mailbox). */
const DOMAIN = 'gitmem.local';

/**
 * gitmem's own commits: merges of background writers, and the committer of a rebase when git knows none.
 * @example identityEnv(SYSTEM_IDENTITY).GIT_AUTHOR_NAME === 'gitmem'
 */
export const SYSTEM_IDENTITY: Readonly<Identity> = Object.freeze({ name: 'gitmem', email: `gitmem@${DOMAIN}` });

/** Where an agent's display name can come from, strongest first after an explicit `given` name. */
export interface AgentNameSources {
  /** What the caller passed (MemoryOptions.author, `init --name`); wins field by field. */
  given?: Partial<Identity> | undefined;
  /** The configured name (GITMEM_AGENT_NAME / AGENT_NAME, see config.ts). */
  configuredName?: string | undefined;
  /** The name `init` or `clone` recorded in the repository (`user.name`). */
  recordedName?: string | undefined;
}

/**
 * The author of an agent's own commits (tool writes, init, the first commit of a cloned empty remote): the
 * given name, else the configured one, else the recorded one, else the agent id; the address is
 * `<agentId>@gitmem.local` unless given.
 * @example agentIdentity('a1') // { name: 'a1', email: 'a1@gitmem.local' }
 * @example agentIdentity('a1', { configuredName: 'Ada' }).name === 'Ada'
 */
export function agentIdentity(agentId: string | undefined, sources: AgentNameSources = {}): Identity {
  const id = agentId ?? 'agent';
  const name = sources.given?.name ?? (sources.configuredName?.trim() || sources.recordedName?.trim() || id);
  return { name, email: sources.given?.email ?? `${id}@${DOMAIN}` };
}

/**
 * An operator's commits when git names no user of its own (see operatorIdentity).
 * @example operatorIdentity().email === OPERATOR_IDENTITY.email
 */
export const OPERATOR_IDENTITY: Readonly<Identity> = Object.freeze({
  name: 'gitmem operator',
  email: `operator@${DOMAIN}`,
});

/** Where an operator's identity can come from, strongest first. */
export interface OperatorSources {
  /** What the caller passed (`memory.protection.write(…, { author })`). */
  given?: Partial<Identity> | undefined;
  /** GIT_AUTHOR_NAME / GIT_AUTHOR_EMAIL of the environment: git's own first choice for an author. */
  environment?: Partial<Identity> | undefined;
  /**
   * `user.name` / `user.email` of the user's git configuration (global, system, `-c`), never the memory
   * repository's own: `init` records the agent's name there.
   */
  gitConfig?: Partial<Identity> | undefined;
}

/**
 * The author of an operator's write of a protected file: the person at the keyboard as git would name them
 * for a commit of their own — given, else the environment's GIT_AUTHOR_*, else their git configuration, field
 * by field — and `gitmem operator <operator@gitmem.local>` for what none of those name. Never the agent.
 * @example operatorIdentity({ gitConfig: { name: 'Ada', email: 'ada@example.org' } }) // { name: 'Ada', email: 'ada@example.org' }
 */
export function operatorIdentity(sources: OperatorSources = {}): Identity {
  const pick = (field: keyof Identity): string | undefined =>
    [sources.given, sources.environment, sources.gitConfig]
      .map((s) => s?.[field]?.trim())
      .find((v) => v !== undefined && v !== '');
  return { name: pick('name') ?? OPERATOR_IDENTITY.name, email: pick('email') ?? OPERATOR_IDENTITY.email };
}

/**
 * The author of a reflection sub-agent's commits in its private worktree.
 * @example reflectionIdentity('a1').email === 'a1+reflection@gitmem.local'
 */
export function reflectionIdentity(agentId: string): Identity {
  return { name: 'gitmem reflection', email: `${agentId}+reflection@${DOMAIN}` };
}

/** The kinds of identity above: gitmem's own, a reflection's, the made-up operator's, an agent's, or someone else's. */
export type IdentityKind = 'system' | 'reflection' | 'operator' | 'agent' | 'other';

/**
 * Which of the identities above an author address is (the read side's half of this policy): gitmem's own,
 * a reflection's, the made-up operator's, an agent's (any other made-up address), or someone else's (an
 * operator with an identity of their own among them).
 * @example identityKind('a1+reflection@gitmem.local') === 'reflection'
 */
export function identityKind(email: string): IdentityKind {
  const address = email.trim().toLowerCase();
  if (address === SYSTEM_IDENTITY.email) return 'system';
  if (address === OPERATOR_IDENTITY.email) return 'operator';
  if (address.endsWith(`+reflection@${DOMAIN}`)) return 'reflection';
  return address.endsWith(`@${DOMAIN}`) ? 'agent' : 'other';
}

/**
 * The identity as git's environment, for author and committer alike (for commands git runs itself).
 * @example git.run(['commit-tree', tree, '-m', msg], { cwd, env: identityEnv(SYSTEM_IDENTITY) })
 */
export function identityEnv(id: Identity): Record<string, string> {
  return {
    GIT_AUTHOR_NAME: id.name,
    GIT_AUTHOR_EMAIL: id.email,
    GIT_COMMITTER_NAME: id.name,
    GIT_COMMITTER_EMAIL: id.email,
  };
}

/**
 * The identity as `-c` configuration entries (`user.name`, `user.email`), for commands that read the config.
 * @example git.run(['rebase', onto], { cwd, config: identityConfig(SYSTEM_IDENTITY) })
 */
export function identityConfig(id: Identity): string[] {
  return [`user.name=${id.name}`, `user.email=${id.email}`];
}
