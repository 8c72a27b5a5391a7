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
