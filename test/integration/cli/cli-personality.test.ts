// `personality apply` never discards what the agent learned silently: persona.md is replaced; human.md only
// while it still holds a starter or preset text, else WOULD_DISCARD_EDITS naming it unless --force; the
// commit message says what was replaced. With and without the daemon.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliHome, errorCode, type CliHome, type CliMode } from '../../helpers/cli.js';
import { cleanupTmp, git } from '../../helpers/tmp.js';

describe.each<CliMode>(['local', 'daemon'])('personality apply (%s)', (mode) => {
  let h: CliHome;
  beforeAll(() => {
    h = cliHome(mode, ['a1']);
  });
  afterAll(() => {
    h.close();
    cleanupTmp();
  });
  const show = (path: string): string => git(h.memoryDir('a1'), ['show', `HEAD:${path}`]);
  const message = (): string => git(h.memoryDir('a1'), ['log', '-1', '--format=%B']);

  it('replaces persona and a starter human, and says so in the commit', () => {
    const r = h.run(['personality', 'apply', 'stern', '--agent', 'a1']);
    expect({ code: r.code, err: r.stderr }).toEqual({ code: 0, err: '' });
    expect(message()).toMatch(
      /^chore\(personality\): switch to stern\n\nReplaced system\/persona\.md and system\/human\.md/,
    );
    const stern = { persona: show('system/persona.md'), human: show('system/human.md') };
    const again = h.run(['personality', 'apply', 'tutor', '--agent', 'a1']); // human holds stern's preset text: replaced
    expect(again.code).toBe(0);
    expect(show('system/persona.md')).not.toBe(stern.persona);
    expect(show('system/human.md')).not.toBe(stern.human);
  });

  it('refuses to replace a human.md holding learned text, naming it; --force replaces it and says so', () => {
    const learned = h.run([
      'memory',
      'insert',
      'system/human.md',
      '--line',
      '0',
      '--text',
      '- Ana prefers pnpm',
      '--reason',
      'learned',
      '--agent',
      'a1',
    ]);
    expect(learned.code).toBe(0);
    const before = h.state('a1');
    const r = h.run(['personality', 'apply', 'cheerful', '--agent', 'a1', '--json']);
    expect({ code: r.code, error: errorCode(r) }).toEqual({ code: 1, error: 'WOULD_DISCARD_EDITS' });
    expect(r.stderr).toContain('system/human.md');
    expect(JSON.parse(r.stdout)).toMatchObject({ error: { data: { path: 'system/human.md' } } });
    expect(h.state('a1')).toBe(before);
    const forced = h.run(['personality', 'apply', 'cheerful', '--force', '--reason', 'a fresh start', '--agent', 'a1']);
    expect({ code: forced.code, err: forced.stderr }).toEqual({ code: 0, err: '' });
    expect(show('system/human.md')).not.toContain('Ana prefers pnpm');
    expect(message()).toMatch(
      /^a fresh start\n\nReplaced system\/persona\.md and system\/human\.md .*\nThe learned text of system\/human\.md was replaced on purpose \(--force\)\./,
    );
  });

  it('the help says what apply replaces', () => {
    expect(h.run(['personality', '--help']).stdout).toMatch(
      /system\/human\.md[\s\S]*only while it still holds a starter or preset text/,
    );
  });
});

describe('personality apply in the index layout (persona.md and human.md in the root)', () => {
  afterAll(() => cleanupTmp());

  it('writes the root core files the layout names, never system/, and refuses learned text there too', () => {
    const h = cliHome('local');
    expect(h.run(['init', '--agent', 'a1', '--layout', 'index']).code).toBe(0);
    const dir = h.memoryDir('a1');
    const files = (): string[] => git(dir, ['ls-tree', '-r', '--name-only', 'HEAD']).trim().split('\n').sort();
    const before = files();
    const r = h.run(['personality', 'apply', 'stern', '--agent', 'a1']);
    expect({ code: r.code, err: r.stderr }).toEqual({ code: 0, err: '' });
    expect(git(dir, ['log', '-1', '--format=%B'])).toMatch(/\n\nReplaced persona\.md and human\.md with the "stern"/);
    expect(files()).toEqual(before);
    expect(files().some((f) => f.startsWith('system/'))).toBe(false);
    expect(git(dir, ['show', 'HEAD:persona.md'])).toMatch(/^---\n(?=[\s\S]*^name: persona$)[\s\S]*\n---\n/m);

    const edit = ['memory', 'insert', 'human.md', '--line', '0', '--text', '- Ana prefers pnpm', '--reason', 'learned'];
    expect(h.run([...edit, '--agent', 'a1']).code).toBe(0);
    const state = h.state('a1');
    const refused = h.run(['personality', 'apply', 'tutor', '--agent', 'a1']);
    expect({ code: refused.code, error: errorCode(refused) }).toEqual({ code: 1, error: 'WOULD_DISCARD_EDITS' });
    expect(refused.stderr).toMatch(/\bhuman\.md holds text learned/);
    expect(refused.stderr).not.toContain('system/');
    expect(h.state('a1')).toBe(state);
  });

  it('creates a missing persona.md with the name and description the layout requires', () => {
    const h = cliHome('local');
    expect(h.run(['init', '--agent', 'a1', '--layout', 'index']).code).toBe(0);
    const dir = h.memoryDir('a1');
    const del = h.run(['memory', 'delete', 'persona.md', '--reason', 'start over', '--agent', 'a1']);
    expect(del.code, del.stderr).toBe(0);
    const r = h.run(['personality', 'apply', 'cheerful', '--agent', 'a1']);
    expect({ code: r.code, err: r.stderr }).toEqual({ code: 0, err: '' });
    expect(git(dir, ['show', 'HEAD:persona.md'])).toMatch(/^---\ndescription: .+\nname: persona\n---\n\n\S/);
  });
});
