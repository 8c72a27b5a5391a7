/**
 * Every doctor check, in the order they run: one table keyed by name, so a new check is one entry here and
 * the compiler refuses a name without one.
 */
import { budgetsCheck } from './check-budgets.js';
import { configCheck } from './check-config.js';
import { duplicatesCheck } from './check-duplicates.js';
import { filesCheck } from './check-files.js';
import { hooksCheck } from './check-hooks.js';
import { keptCheck } from './check-kept.js';
import { linksCheck } from './check-links.js';
import { locksCheck } from './check-locks.js';
import { remoteCheck } from './check-remote.js';
import { secretsCheck } from './check-secrets.js';
import { skillsCheck } from './check-skills.js';
import { worktreesCheck } from './check-worktrees.js';
import type { DoctorCheck } from './types.js';

export const DOCTOR_CHECK_NAMES = [
  'hooks',
  'config',
  'files',
  'budgets',
  'links',
  'duplicates',
  'kept',
  'worktrees',
  'locks',
  'remote',
  'secrets',
  'skills',
] as const;
export type DoctorCheckName = (typeof DOCTOR_CHECK_NAMES)[number];

export const DOCTOR_CHECKS: Readonly<Record<DoctorCheckName, DoctorCheck>> = {
  hooks: hooksCheck,
  config: configCheck,
  files: filesCheck,
  budgets: budgetsCheck,
  links: linksCheck,
  duplicates: duplicatesCheck,
  kept: keptCheck,
  worktrees: worktreesCheck,
  locks: locksCheck,
  remote: remoteCheck,
  secrets: secretsCheck,
  skills: skillsCheck,
};
