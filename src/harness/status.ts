/**
 * `gitmem connect --status`: for each harness and scope, what its settings files actually hold of
 * gitmem's (hooks per event, the MCP server, the agent they name), and the project → agent mappings.
 * A file gitmem cannot read is reported, not thrown: status is what a user runs when something is off.
 */
import { MemoryError, readGitmemConfig } from '../internals.js';
import { HARNESS_IDS, HARNESSES, SCOPES, type HarnessId, type Scope } from './catalogue.js';
import { agentOf, isOurMcpServer } from './command-line.js';
import { locations } from './connect.js';
import { inspect } from './plan.js';

export interface HarnessStatus {
  harness: HarnessId;
  scope: Scope;
  /** Hook events present (of the catalogue's). */
  hooks: string[];
  /** Hook events the catalogue registers that are missing. */
  missingHooks: string[];
  /** `ours`: gitmem's server; `other`: a "gitmem" server someone else wrote; `none`. */
  mcp: 'ours' | 'other' | 'none';
  /** The agent the entries name (`--agent`), when they name one. */
  agent: string | undefined;
  connected: boolean;
  files: string[];
  /** Why a file could not be read, when one could not. */
  problems: string[];
}

export interface StatusResult {
  harnesses: HarnessStatus[];
  /** Project git root → agent, from the config. */
  projects: Record<string, string>;
}

function statusOf(id: HarnessId, scope: Scope, env: Record<string, string | undefined>, cwd: string): HarnessStatus {
  const harness = HARNESSES[id];
  const files = harness.files(scope, locations(env, cwd));
  const s: HarnessStatus = {
    harness: id,
    scope,
    hooks: [],
    missingHooks: [],
    mcp: 'none',
    agent: undefined,
    connected: false,
    files: files.map((f) => f.path),
    problems: [],
  };
  for (const file of files) {
    try {
      const found = inspect(id, file);
      for (const [event, command] of found.hooks ?? []) {
        s.hooks.push(event);
        s.agent ??= agentOf(command);
      }
      if (found.mcp) s.mcp = found.mcp.ours && isOurMcpServer(found.mcp.server) ? 'ours' : 'other';
      if (s.mcp === 'ours') s.agent ??= agentOf((found.mcp?.server as { args: unknown[] }).args);
    } catch (err) {
      if (!(err instanceof MemoryError)) throw err;
      s.problems.push(err.message);
    }
  }
  s.missingHooks = harness.events.map((e) => e.event).filter((e) => !s.hooks.includes(e));
  s.connected = s.missingHooks.length === 0 && s.mcp === 'ours';
  return s;
}

/**
 * What is connected where, read from the harnesses' files (not from gitmem's record).
 * @example connectStatus({ home, env: process.env, cwd: process.cwd() }).harnesses[0].connected
 */
export function connectStatus(o: { home: string; env: Record<string, string | undefined>; cwd: string }): StatusResult {
  const harnesses = HARNESS_IDS.flatMap((id) => SCOPES.map((scope) => statusOf(id, scope, o.env, o.cwd)));
  return { harnesses, projects: readGitmemConfig(o.home).projects ?? {} };
}

/** The status as text: one line per harness and scope, then the mappings. */
export function renderStatus(r: StatusResult): string {
  const lines = r.harnesses.map((s) => {
    const state = s.connected
      ? 'connected'
      : s.hooks.length === 0 && s.mcp === 'none'
        ? 'not connected'
        : 'partly connected';
    const parts = [`hooks ${s.hooks.length > 0 ? s.hooks.join(', ') : 'none'}`, `MCP ${s.mcp}`];
    if (s.missingHooks.length > 0 && s.hooks.length > 0) parts.push(`missing ${s.missingHooks.join(', ')}`);
    const agent = s.agent ? `, agent ${s.agent}` : '';
    const head = `${HARNESSES[s.harness].displayName} (${s.scope}): ${state}${state === 'not connected' ? '' : ` (${parts.join('; ')}${agent})`}`;
    return [head, ...s.problems.map((p) => `  problem: ${p}`)].join('\n');
  });
  const mapped = Object.entries(r.projects);
  lines.push(
    mapped.length === 0 ? 'Projects: none mapped (gitmem connect --agent <id> maps the current project)' : 'Projects:',
  );
  for (const [root, agent] of mapped) lines.push(`  ${root} → ${agent}`);
  return lines.join('\n');
}
