/**
 * Every CLI command, imported only when invoked so start-up stays fast. One line per command.
 */
import type { CliCommand } from './types.js';

type Loader = () => Promise<{ command: CliCommand }>;

export const COMMANDS: Record<string, Loader> = {
};
