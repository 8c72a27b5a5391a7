import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { redactText } from '../../internals.js';
import { cleanupTmp, makeTmpDir } from '../../../test/helpers/tmp.js';
import { daemonLogger } from './log-file.js';

afterAll(cleanupTmp);

describe('daemonLogger', () => {
  it('writes every line through the redaction: no token reaches the daemon log', () => {
    const file = join(makeTmpDir('gitmem-daemon-log-'), 'd.log');
    const log = daemonLogger(file, redactText);
    log("run failed: GitCommandError: fatal: unable to access 'https://h/m.git?access_token=Zq9secret1/'");
    log('hook check failed: Authorization: Bearer ghp_abcdefghijklmnopqrstuvwxyz0123');
    const text = readFileSync(file, 'utf8');
    expect(text).not.toMatch(/Zq9secret1|abcdefghijklmnopqrstuvwxyz0123/);
    expect(text).toMatch(/^\S+Z run failed: .*access_token=<redacted>/m);
    expect(text.split('\n').filter(Boolean)).toHaveLength(2);
  });
});
