/**
 * `gitmem connect` / `disconnect` / `config` through the built CLI: the hook lines name this gitmem's real
 * path, a second connect writes nothing, disconnect gives the files back byte for byte, and a refusal is
 * one `gitmem: CODE: file:line:col …` line with nothing written.
 */
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliHome, errorCode, GITMEM_BIN, type CliHome } from '../../helpers/cli.js';
import { cleanupTmp } from '../../helpers/tmp.js';

let h: CliHome;
let settings: string;
const SETTINGS =
  '{\n  "model": "opus",\n  "hooks": { "Stop": [ { "hooks": [ { "type": "command", "command": "say done" } ] } ] }\n}\n';

beforeAll(() => {
  h = cliHome('local', ['a1']);
  settings = join(h.root, '.claude', 'settings.json');
  mkdirSync(join(h.root, '.claude'));
  writeFileSync(settings, SETTINGS);
});
afterAll(() => {
  h.close();
  cleanupTmp();
});

describe('gitmem connect through the CLI', () => {
  it('connects Claude Code with this gitmem, then says it is already connected', () => {
    const r = h.run(['connect', 'claude-code']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const text = readFileSync(settings, 'utf8');
    expect(text).toContain(`'${process.execPath}' '${realpathSync(GITMEM_BIN)}' hook claude-code session-end`);
    expect(text).toContain('"command": "say done"');
    expect(JSON.parse(readFileSync(join(h.root, '.claude.json'), 'utf8'))).toEqual({
      mcpServers: {
        gitmem: { type: 'stdio', command: process.execPath, args: [realpathSync(GITMEM_BIN), 'mcp', '--home', h.home] },
      },
    });
    const again = h.run(['connect', 'claude-code']);
    expect(again.stdout).toMatch(/already connected; nothing written/);
    const status = JSON.parse(h.run(['connect', '--status', '--json']).stdout) as {
      harnesses: Array<{ harness: string; scope: string; connected: boolean }>;
    };
    expect(status.harnesses.filter((s) => s.connected).map((s) => `${s.harness}/${s.scope}`)).toEqual([
      'claude-code/user',
    ]);
  });

  it('disconnect restores the settings byte for byte and removes the file it created', () => {
    const r = h.run(['disconnect', 'claude-code', '--json']);
    expect(r.code).toBe(0);
    expect(readFileSync(settings, 'utf8')).toBe(SETTINGS);
    expect(existsSync(join(h.root, '.claude.json'))).toBe(false);
    expect(h.run(['disconnect', 'claude-code']).stdout).toMatch(/not connected; nothing written/);
  });

  it('refuses malformed settings with one line naming file:line:col, writing nothing', () => {
    const codex = join(h.root, '.codex');
    mkdirSync(codex);
    writeFileSync(join(codex, 'config.toml'), 'model = "x"\n[broken\n');
    const r = h.run(['connect', 'codex']);
    expect(r.code).toBe(1);
    expect(errorCode(r)).toBe('INVALID_ARGUMENT');
    expect(r.stderr).toMatch(/config\.toml:2:8: not valid TOML/);
    expect(existsSync(join(codex, 'hooks.json'))).toBe(false);
    expect(errorCode(h.run(['connect', 'cursor']))).toBe('INVALID_ARGUMENT');
  });

  it('gitmem config set / get / unset', () => {
    expect(h.run(['config', 'set', 'reflection.stepCount', '25']).code).toBe(0);
    expect(h.run(['config', 'get', 'reflection.stepCount']).stdout).toBe('25\n');
    expect(errorCode(h.run(['config', 'set', 'model', '7']))).toBe('INVALID_ARGUMENT');
    expect(h.run(['config', 'unset', 'reflection']).code).toBe(0);
    expect(h.run(['config']).stdout).toBe(`${join(h.home, 'config')}\n{}\n`);
  });
});
