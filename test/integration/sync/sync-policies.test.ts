// Conflict policies are one table (src/sync/conflict-policy.ts): the type is its keys, the parser accepts
// only its own keys, and `gitmem sync --help` lists every policy with its description from it.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { command } from '../../../src/cli/commands/sync.js';
import { CONFLICT_POLICIES, CONFLICT_POLICY_NAMES, parseConflictPolicy } from '../../../src/sync/conflict-policy.js';
import { errorCodeOf } from '../../helpers/errors.js';
import { hermeticGitEnv, makeTmpDir } from '../../helpers/tmp.js';

const CLI = join(import.meta.dirname, '..', '..', 'helpers', 'run-cli.ts');

describe('conflict policies', () => {
  it('are the keys of one table; anything else, inherited names included, is INVALID_ARGUMENT naming them', () => {
    expect(CONFLICT_POLICY_NAMES).toEqual(Object.keys(CONFLICT_POLICIES));
    expect(CONFLICT_POLICY_NAMES).toEqual(['fail', 'keep-branch', 'leave']);
    for (const name of CONFLICT_POLICY_NAMES) expect(parseConflictPolicy(name)).toBe(name);
    for (const bad of ['bogus', 'constructor', '__proto__', 'toString', '', 42]) {
      expect(
        errorCodeOf(() => parseConflictPolicy(bad)),
        String(bad),
      ).toBe('INVALID_ARGUMENT');
    }
    expect(() => parseConflictPolicy('bogus')).toThrow('--on-conflict must be one of fail, keep-branch, leave');
  });

  it('gitmem sync --help lists every policy with its description; --on-conflict constructor is refused', () => {
    for (const [name, def] of Object.entries(CONFLICT_POLICIES)) {
      expect(command.usage).toContain(name);
      expect(command.usage).toContain(def.help);
    }
    const home = makeTmpDir('gitmem-home-');
    const r = spawnSync(
      process.execPath,
      ['--import', 'tsx', CLI, 'sync', '--on-conflict', 'constructor', '--agent', 'a1'],
      {
        env: { ...hermeticGitEnv(home), GITMEM_HOME: home, NODE_OPTIONS: '' },
        encoding: 'utf8',
      },
    );
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('gitmem: INVALID_ARGUMENT: --on-conflict must be one of fail, keep-branch, leave');
  });
});
