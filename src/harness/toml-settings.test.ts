import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { mcpServer } from './command-line.js';
import { addTomlServer, readTomlServer, removeTomlServer, tomlString } from './toml-settings.js';

const P = '/u/.codex/config.toml';
const server = mcpServer({ node: '/usr/bin/node', bin: '/opt/gitmem/dist/bin/gitmem.cjs' });

const USER = `# my codex settings
model = "gpt-5"   # the default

[model_providers.fake]
base_url = "http://127.0.0.1:1/v1"

# servers I use
[mcp_servers.other]
command = "other"
`;

describe('TOML mcp_servers.gitmem block', () => {
  it('appends one marked block after one blank line, keeping comments and order', () => {
    const out = addTomlServer(P, USER, 'codex', server);
    expect(out.startsWith(USER)).toBe(true);
    expect(out.slice(USER.length)).toBe(
      '\n# gitmem: added by `gitmem connect codex`; `gitmem disconnect codex` removes this table\n[mcp_servers.gitmem]\n' +
        'command = "/usr/bin/node"\nargs = ["/opt/gitmem/dist/bin/gitmem.cjs", "mcp"]\n',
    );
    expect((parse(out) as { mcp_servers: Record<string, unknown> }).mcp_servers['gitmem']).toEqual(server);
    expect(readTomlServer(P, out)).toEqual({ ours: true, server });
  });

  it('adds the block once: a second run returns the same text', () => {
    const once = addTomlServer(P, USER, 'codex', server);
    expect(addTomlServer(P, once, 'codex', server)).toBe(once);
  });

  it('replaces our older block in place, keeping a table the user added after it', () => {
    const old = addTomlServer(P, USER, 'codex', mcpServer({ node: '/old/node', bin: '/old/gitmem.cjs' }));
    const later = `${old}\n# mine\n[profiles.fast]\nmodel = "x"\n`;
    const out = addTomlServer(P, later, 'codex', { ...server, args: [...server.args, '--agent', 'a b'] });
    expect(out).not.toContain('/old/');
    expect(out.endsWith('\n# mine\n[profiles.fast]\nmodel = "x"\n')).toBe(true);
    expect(removeTomlServer(P, out)).toBe(`${USER}\n# mine\n[profiles.fast]\nmodel = "x"\n`);
  });

  it('removes exactly what it added, with and without a newline at the end of the file', () => {
    expect(removeTomlServer(P, addTomlServer(P, USER, 'codex', server))).toBe(USER);
    const noNewline = 'model = "gpt-5"';
    const out = addTomlServer(P, noNewline, 'codex', server);
    expect(out.startsWith('model = "gpt-5"\n\n# gitmem:')).toBe(true);
    // Surgery leaves the newline it had to add; disconnect restores the exact bytes from its record.
    expect(removeTomlServer(P, out)).toBe('model = "gpt-5"\n');
    expect(removeTomlServer(P, addTomlServer(P, undefined, 'codex', server))).toBe('');
  });

  it('keeps CRLF line endings', () => {
    const crlf = 'a = 1\r\n';
    const out = addTomlServer(P, crlf, 'codex', server);
    expect(out.replaceAll('\r\n', '')).not.toContain('\n');
    expect(removeTomlServer(P, out)).toBe(crlf);
  });

  it('refuses a malformed file naming line and column', () => {
    expect(() => addTomlServer(P, 'a = 1\nb = = 2\n', 'codex', server)).toThrow(
      /config\.toml:2:5: not valid TOML \(invalid value\)/,
    );
  });

  it('refuses to touch an mcp_servers.gitmem the user wrote', () => {
    const theirs = `${USER}\n[mcp_servers.gitmem]\ncommand = "gitmem"\nargs = ["mcp"]\n`;
    expect(() => addTomlServer(P, theirs, 'codex', server)).toThrow(
      /config\.toml:11:1: already defines mcp_servers\.gitmem/,
    );
    expect(removeTomlServer(P, theirs)).toBe(theirs);
    expect(readTomlServer(P, theirs)?.ours).toBe(false);
  });

  it('refuses a file whose mcp_servers cannot take our table', () => {
    expect(() => addTomlServer(P, 'mcp_servers = { other = { command = "x" } }\n', 'codex', server)).toThrow(
      /:1:1: cannot take a \[mcp_servers\.gitmem\] table/,
    );
  });

  it('writes TOML basic strings that round-trip', () => {
    const odd = `/a "q" \\ b\t'\x7f`;
    expect((parse(`s = ${tomlString(odd)}`) as { s: string }).s).toBe(odd);
  });
});
