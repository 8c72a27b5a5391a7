// hostFacts reads the runtime-directory variables one by one instead of copying the whole process
// environment: the directories it hides must include those of `{ ...process.env, ...env }`, whichever side sets them.
import { afterEach, describe, expect, it } from 'vitest';
import { gitmemRuntimeDirCandidates } from '../process/runtime-dir.js';
import { launcherScratchDirs } from '../process/shell-launcher.js';
import { hostFacts } from './host.js';

const saved = { XDG_RUNTIME_DIR: process.env['XDG_RUNTIME_DIR'], TMPDIR: process.env['TMPDIR'] };

function setProcessEnv(name: 'XDG_RUNTIME_DIR' | 'TMPDIR', value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}

afterEach(() => {
  setProcessEnv('XDG_RUNTIME_DIR', saved.XDG_RUNTIME_DIR);
  setProcessEnv('TMPDIR', saved.TMPDIR);
});

describe('hostFacts runtime directories', () => {
  it('are those of the process environment overlaid with the given one', () => {
    const values = [undefined, '', '  ', '/run/user/77', 'relative', '/srv/tmp/'];
    for (const procXdg of values) {
      for (const procTmp of values) {
        setProcessEnv('XDG_RUNTIME_DIR', procXdg);
        setProcessEnv('TMPDIR', procTmp);
        for (const env of [
          {},
          { XDG_RUNTIME_DIR: undefined },
          { XDG_RUNTIME_DIR: '/x/run' },
          { TMPDIR: '/x/tmp' },
          { XDG_RUNTIME_DIR: '', TMPDIR: undefined },
        ]) {
          // plus the process's own environment's and its launchers' scratch, hidden whatever `env` says
          const want = new Set([
            ...gitmemRuntimeDirCandidates({ ...process.env, ...env }),
            ...gitmemRuntimeDirCandidates(process.env),
            ...launcherScratchDirs(),
          ]);
          expect(new Set(hostFacts(env, 'linux').runtimeDirs), JSON.stringify({ procXdg, procTmp, env })).toEqual(want);
        }
      }
    }
  });
});
