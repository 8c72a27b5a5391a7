/**
 * What sync does when integrating the remote hits a true conflict: one table, keyed by the policy, holding
 * everything a policy is (its help line, what it does to the stopped rebase, how the result reads). The
 * `ConflictPolicy` type is this table's keys, so a new policy cannot exist without saying all three.
 */
import { MemoryError } from '../errors.js';

/** The steps a policy is made of, given by integration for the rebase that stopped. */
export interface RebaseConflictOps {
  abortRebase(): Promise<void>;
  /** Saves main's current commit on a new `gitmem/conflict/<time>` branch; returns the branch name. */
  keepLocalCommits(): Promise<string>;
  /** Moves main (and the work tree) to the remote's main. */
  followRemote(): Promise<void>;
}

/** Where main stood against the remote when the rebase stopped. */
export interface ConflictCounts {
  /** Local commits not on the remote. */
  ahead: number;
  /** Remote commits not in main. */
  behind: number;
}

/** What a policy left: commits pulled into main, local commits still unpushed, the kept branch. */
export interface PolicyResolution {
  pulled: number;
  ahead: number;
  keptBranch?: string;
}

interface ConflictPolicyDef {
  /** One line for `gitmem sync --help`. */
  help: string;
  resolve: (ops: RebaseConflictOps, c: ConflictCounts) => Promise<PolicyResolution>;
  /** The sync summary; `what` names the conflicted files. */
  summary: (r: PolicyResolution, what: string) => string;
}

/** Every conflict policy (the first is the default). */
export const CONFLICT_POLICIES = {
  fail: {
    help: 'stop; main stays exactly as it was (local commits intact, not pushed)',
    resolve: async (ops, c) => {
      await ops.abortRebase();
      return { pulled: 0, ahead: c.ahead };
    },
    summary: (r, what) =>
      `Sync stopped on a conflict; main is unchanged with ${r.ahead} local commit(s) not pushed. ${what}`,
  },
  'keep-branch': {
    help: 'keep the local commits on gitmem/conflict/<time>; main follows the remote',
    resolve: async (ops, c) => {
      await ops.abortRebase();
      const keptBranch = await ops.keepLocalCommits();
      await ops.followRemote();
      return { pulled: c.behind, ahead: 0, keptBranch };
    },
    summary: (r, what) => `Local commits kept on ${r.keptBranch ?? '?'}; main now follows the remote. ${what}`,
  },
  leave: {
    help: 'leave the rebase in progress, to be resolved by hand',
    resolve: async (_ops, c) => ({ pulled: 0, ahead: c.ahead }),
    summary: (_r, what) => `rebase in progress; ${what}`,
  },
} as const satisfies Record<string, ConflictPolicyDef>;

/** What a sync does when the rebase meets a true conflict (one of CONFLICT_POLICY_NAMES). */
export type ConflictPolicy = keyof typeof CONFLICT_POLICIES;

/** The policies in table order. */
export const CONFLICT_POLICY_NAMES = Object.keys(CONFLICT_POLICIES) as ConflictPolicy[];

export const DEFAULT_CONFLICT_POLICY: ConflictPolicy = 'fail';

/**
 * Checks a policy name from a caller (own keys of the table only: "constructor" is not a policy).
 * @example parseConflictPolicy('keep-branch') === 'keep-branch'
 */
export function parseConflictPolicy(value: unknown): ConflictPolicy {
  if (typeof value === 'string' && Object.hasOwn(CONFLICT_POLICIES, value)) return value as ConflictPolicy;
  throw new MemoryError(
    'INVALID_ARGUMENT',
    `--on-conflict must be one of ${CONFLICT_POLICY_NAMES.join(', ')}, got ${String(value)}`,
    {
      data: { value: String(value), policies: [...CONFLICT_POLICY_NAMES] },
    },
  );
}
