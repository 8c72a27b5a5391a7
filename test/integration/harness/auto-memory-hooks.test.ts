// Claude Code's auto memory in a gitmem checkout, through the built CLI with the hook JSON Claude Code sends:
// `gitmem hook claude-code pre-write` judges the file a Write/Edit would leave (index layout) and denies an
// invalid one with the validator's reason; `post-write` commits the write (one commit, reason from the call);
// `auto-memory-start` commits what no hook committed, in a commit of its own; `connect --auto-memory` imports
// the existing folder (one commit) and `disconnect` restores the settings byte for byte. The real `claude`
// drives the same hooks in auto-memory-claude.test.ts.
import { existsSync, mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliHome, errorCode, type CliHome } from '../../helpers/cli.js';
import { cleanupTmp, git } from '../../helpers/tmp.js';

afterAll(() => cleanupTmp());

const TOPIC = '---\nname: build\ndescription: How the project builds\ntype: project\n---\nIt builds with make.\n';
const INDEX = '# Memory\n\n- [build](build.md): how the project builds\n';

/** An agent made with the index layout (its root MEMORY.md starts `# Memory\n`). */
function indexAgent(mode: 'local' | 'daemon' = 'local'): { h: CliHome; dir: string } {
  const h = cliHome(mode);
  const r = h.run(['init', '--agent', 'a1', '--layout', 'index'], { env: { GITMEM_DAEMON: '0' } });
  expect(r.code, r.stderr).toBe(0);
  return { h, dir: h.memoryDir('a1') };
}

function hook(h: CliHome, event: string, input: Record<string, unknown>): { stdout: string; stderr: string } {
  const r = h.run(['hook', 'claude-code', event, '--agent', 'a1'], { input: JSON.stringify(input) });
  expect(r.code, r.stderr).toBe(0);
  return r;
}

const toolInput = (dir: string, tool: string, input: Record<string, unknown>) => ({
  session_id: 's1',
  cwd: dir,
  hook_event_name: 'PreToolUse',
  tool_name: tool,
  tool_input: input,
});

const log = (dir: string): string[] => git(dir, ['log', '--format=%s']).trim().split('\n');

describe('gitmem hook claude-code pre-write / post-write / auto-memory-start', () => {
  it('a valid Write passes and becomes one commit; an invalid one is denied with the reason; outside is ignored', () => {
    const { h, dir } = indexAgent();
    const write = toolInput(dir, 'Write', { file_path: join(dir, 'build.md'), content: TOPIC });
    expect(hook(h, 'pre-write', write).stdout).toBe('');
    writeFileSync(join(dir, 'build.md'), TOPIC); // what Claude Code's Write does
    const before = log(dir).length;
    hook(h, 'post-write', write);
    expect(log(dir)).toHaveLength(before + 1);
    expect(log(dir)[0]).toBe('Claude Code Write build.md');
    expect(git(dir, ['status', '--porcelain'])).toBe('');

    const bad = toolInput(dir, 'Write', { file_path: join(dir, 'bad.md'), content: '---\nname: [\n---\nbody\n' });
    const denied = JSON.parse(hook(h, 'pre-write', bad).stdout) as {
      hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string };
    };
    expect(denied.hookSpecificOutput.permissionDecision).toBe('deny');
    expect(denied.hookSpecificOutput.permissionDecisionReason).toMatch(/^gitmem refused this write: bad\.md: .*YAML/);
    const noName = toolInput(dir, 'Write', { file_path: join(dir, 'x.md'), content: '---\ndescription: d\n---\nb\n' });
    expect(hook(h, 'pre-write', noName).stdout).toContain('name');

    const outside = toolInput(dir, 'Write', { file_path: join(h.root, 'elsewhere.md'), content: 'junk' });
    expect(hook(h, 'pre-write', outside).stdout).toBe('');
    hook(h, 'post-write', outside);
    expect(log(dir)).toHaveLength(before + 1);
  });

  it('an Edit is judged on the file it leaves (the current text with the replacement applied)', () => {
    const { h, dir } = indexAgent();
    const edit = (old: string, now: string) =>
      toolInput(dir, 'Edit', { file_path: join(dir, 'MEMORY.md'), old_string: old, new_string: now });
    expect(hook(h, 'pre-write', edit('# Memory\n', INDEX)).stdout).toBe('');
    // The same edit putting frontmatter into the root index: refused (the index has none).
    const fm = hook(h, 'pre-write', edit('# Memory\n', `---\ndescription: x\n---\n${INDEX}`)).stdout;
    expect(fm).toContain('"permissionDecision":"deny"');
    writeFileSync(join(dir, 'MEMORY.md'), readFileSync(join(dir, 'MEMORY.md'), 'utf8').replace('# Memory\n', INDEX));
    hook(h, 'post-write', edit('# Memory\n', INDEX));
    expect(log(dir)[0]).toBe('Claude Code Edit MEMORY.md');
    expect(git(dir, ['show', 'HEAD:MEMORY.md'])).toContain('- [build](build.md): how the project builds');
  });

  it('a link in the checkout is never written through', () => {
    const { h, dir } = indexAgent();
    symlinkSync(join(h.root, 'target.md'), join(dir, 'link.md'));
    const out = hook(h, 'pre-write', toolInput(dir, 'Write', { file_path: join(dir, 'link.md'), content: TOPIC }));
    expect(out.stdout).toContain('not a regular file');
  });

  it('a change no hook committed is committed at the next session start, in a commit that says so', () => {
    const { h, dir } = indexAgent();
    writeFileSync(join(dir, 'build.md'), TOPIC);
    writeFileSync(join(dir, 'MEMORY.md'), `${INDEX}more\n`);
    const head = git(dir, ['rev-parse', 'HEAD']).trim();
    const out = hook(h, 'auto-memory-start', { session_id: 's2', cwd: dir, source: 'startup' });
    expect(out.stdout).toBe('');
    expect(git(dir, ['rev-parse', 'HEAD~1']).trim()).toBe(head);
    expect(log(dir)[0]).toMatch(
      /^Changes made while the gitmem hooks did not run .*: (MEMORY\.md, build\.md|build\.md, MEMORY\.md)$/,
    );
    expect(git(dir, ['status', '--porcelain'])).toBe('');
    // Nothing stray: no commit.
    hook(h, 'auto-memory-start', { session_id: 's3', cwd: dir, source: 'startup' });
    expect(git(dir, ['rev-parse', 'HEAD~1']).trim()).toBe(head);
  });
});

describe('the auto-memory hooks through the CLI daemon', () => {
  it('pre-write, post-write and auto-memory-start are answered by the daemon, as they are without it', () => {
    const local = indexAgent();
    const served = indexAgent('daemon');
    try {
      const answers = [local, served].map(({ h, dir }) => {
        const before = h.served();
        const bad = toolInput(dir, 'Write', { file_path: join(dir, 'bad.md'), content: '---\nname: [\n---\nb\n' });
        const denied = hook(h, 'pre-write', bad).stdout.replace(dir, '<dir>');
        const write = toolInput(dir, 'Write', { file_path: join(dir, 'build.md'), content: TOPIC });
        const passed = hook(h, 'pre-write', write).stdout;
        writeFileSync(join(dir, 'build.md'), TOPIC);
        hook(h, 'post-write', write);
        writeFileSync(join(dir, 'MEMORY.md'), `${INDEX}stray\n`);
        hook(h, 'auto-memory-start', { session_id: 's2', cwd: dir, source: 'startup' });
        return {
          denied,
          passed,
          log: log(dir).slice(0, 2),
          clean: git(dir, ['status', '--porcelain']),
          n: h.served() - before,
        };
      });
      const [a, b] = answers;
      expect(a?.n).toBe(0); // no daemon: served() stays -1
      expect(b?.n).toBe(4); // every hook call went through the daemon
      expect({ ...b, n: 0 }).toEqual({ ...a, n: 0 });
      expect(a?.denied).toContain('"permissionDecision":"deny"');
      expect(a?.log[1]).toBe('Claude Code Write build.md');
    } finally {
      served.h.close();
    }
  });
});

describe('gitmem connect claude-code --auto-memory', () => {
  function claudeSetup(projectName = 'project') {
    const { h, dir } = indexAgent();
    const userHome = join(h.root, 'user');
    const project = join(h.root, projectName);
    mkdirSync(join(project, '.git'), { recursive: true });
    const settings = join(userHome, '.claude', 'settings.json');
    mkdirSync(join(userHome, '.claude'), { recursive: true });
    const original = '{\n  "theme": "dark"\n}\n';
    writeFileSync(settings, original);
    const key = realpathSync(project).replace(/[^a-zA-Z0-9]/g, '-');
    const folder = join(userHome, '.claude', 'projects', key, 'memory');
    const env = { HOME: userHome };
    return { h, dir, project, settings, original, folder, env };
  }

  it('imports the folder in one commit, sets autoMemoryDirectory and the write hooks; disconnect restores the bytes', () => {
    const s = claudeSetup();
    mkdirSync(join(s.folder, 'notes'), { recursive: true });
    writeFileSync(join(s.folder, 'MEMORY.md'), '# Memory\n\n- [build](build.md)\n- [notes](notes/MEMORY.md)\n');
    writeFileSync(join(s.folder, 'build.md'), TOPIC);
    writeFileSync(join(s.folder, 'notes', 'MEMORY.md'), '- [x](x.md)\n');
    writeFileSync(join(s.folder, 'notes', 'x.md'), '---\nname: x\ndescription: X\n---\nx\n');
    const before = log(s.dir).length;
    const r = s.h.run(['connect', 'claude-code', '--auto-memory', '--agent', 'a1'], { cwd: s.project, env: s.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('imported 4 file(s)');
    expect(log(s.dir)).toHaveLength(before + 1);
    expect(log(s.dir)[0]).toMatch(/^Import Claude Code's auto memory from .* \(4 files\)$/);
    // Both indexes kept: the checkout's line, then the folder's lines it lacked.
    const index = git(s.dir, ['show', 'HEAD:MEMORY.md']);
    expect(index.startsWith('# Memory\n\nThe markdown')).toBe(true);
    expect(index.endsWith('- [build](build.md)\n- [notes](notes/MEMORY.md)')).toBe(true);
    expect(git(s.dir, ['show', 'HEAD:notes/x.md'])).toBe('---\nname: x\ndescription: X\n---\nx');
    expect(existsSync(join(s.folder, 'build.md'))).toBe(true); // the folder is left as it was
    const settings = JSON.parse(readFileSync(s.settings, 'utf8')) as {
      autoMemoryDirectory: string;
      hooks: Record<string, Array<{ matcher?: string; hooks: Array<{ command: string }> }>>;
    };
    expect(settings.autoMemoryDirectory).toBe(s.dir);
    expect(settings.hooks['PreToolUse']?.[0]?.matcher).toBe('Write|Edit|MultiEdit');
    expect(settings.hooks['PreToolUse']?.[0]?.hooks[0]?.command).toMatch(/hook claude-code pre-write --agent 'a1'/);
    expect(settings.hooks['PostToolUse']?.[0]?.hooks[0]?.command).toMatch(/post-write/);
    expect(settings.hooks['SessionStart']?.[0]?.hooks[0]?.command).toMatch(/auto-memory-start/);
    const d = s.h.run(['disconnect', 'claude-code'], { cwd: s.project, env: s.env });
    expect(d.code, d.stderr).toBe(0);
    expect(readFileSync(s.settings, 'utf8')).toBe(s.original);
  });

  it("finds a long project path's folder: Claude Code truncated its key to 200 characters and appended a hash", () => {
    const s = claudeSetup(join(...Array.from({ length: 4 }, (_, i) => `deep_${i}.${'p'.repeat(60)}`), 'app'));
    const key = realpathSync(s.project).replace(/[^a-zA-Z0-9]/g, '-');
    expect(key.length).toBeGreaterThan(200);
    // The native build's hash is not the one gitmem computes: the one folder with the prefix is taken.
    const folder = join(s.env.HOME, '.claude', 'projects', `${key.slice(0, 200)}-x7k2p`, 'memory');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'build.md'), TOPIC);
    const r = s.h.run(['connect', 'claude-code', '--auto-memory', '--agent', 'a1'], { cwd: s.project, env: s.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('imported 1 file(s)');
    expect(git(s.dir, ['show', 'HEAD:build.md'])).toBe(TOPIC.trimEnd());
  });

  it('refuses a checkout without the index layout, and a folder file the checkout holds with other bytes', () => {
    const s = claudeSetup();
    git(s.dir, ['config', 'gitmem.layout', 'system']);
    const r = s.h.run(['connect', 'claude-code', '--auto-memory', '--agent', 'a1'], { cwd: s.project, env: s.env });
    expect(errorCode(r)).toBe('INVALID_ARGUMENT');
    expect(r.stderr).toContain('index layout');
    git(s.dir, ['config', 'gitmem.layout', 'index']);
    mkdirSync(s.folder, { recursive: true });
    writeFileSync(join(s.folder, 'build.md'), TOPIC);
    writeFileSync(join(s.dir, 'build.md'), TOPIC.replace('make', 'bazel'));
    git(s.dir, ['add', 'build.md']);
    git(s.dir, ['commit', '-q', '-m', 'build']);
    const head = git(s.dir, ['rev-parse', 'HEAD']);
    const c = s.h.run(['connect', 'claude-code', '--auto-memory', '--agent', 'a1'], { cwd: s.project, env: s.env });
    expect(errorCode(c)).toBe('FILE_EXISTS');
    expect(git(s.dir, ['rev-parse', 'HEAD'])).toBe(head);
    expect(readFileSync(s.settings, 'utf8')).toBe(s.original);
  });

  it('a refused import leaves the checkout and the settings exactly as they were', () => {
    const s = claudeSetup();
    mkdirSync(s.folder, { recursive: true });
    writeFileSync(join(s.folder, 'good.md'), TOPIC.replace('build', 'good'));
    writeFileSync(join(s.folder, 'bad.md'), '---\nname: [\n---\nbody\n');
    const head = git(s.dir, ['rev-parse', 'HEAD']);
    const r = s.h.run(['connect', 'claude-code', '--auto-memory', '--agent', 'a1'], { cwd: s.project, env: s.env });
    expect(errorCode(r), r.stderr).toBe('VALIDATION_FAILED');
    expect(git(s.dir, ['rev-parse', 'HEAD'])).toBe(head);
    expect(git(s.dir, ['status', '--porcelain'])).toBe('');
    expect(existsSync(join(s.dir, 'good.md'))).toBe(false);
    expect(readFileSync(s.settings, 'utf8')).toBe(s.original);
  });
});
