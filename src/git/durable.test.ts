import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fsyncSwitch } from '../config.js';
import { gitmemConfigValue } from './config-text.js';
import { durableWrites } from './durable.js';

const dir = mkdtempSync(join(tmpdir(), 'gitmem-durable-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('durableWrites', () => {
  it('is on by default, off by GITMEM_FSYNC or gitmem.fsync, the env winning', () => {
    const d = (path: string, env: Record<string, string>): boolean => durableWrites(path, fsyncSwitch(env));
    expect(d(join(dir, 'absent'), {})).toBe(true);
    writeFileSync(join(dir, 'config'), '[core]\n\tfsync = none\n[gitmem]\n\tfsync = true\n[gitmem]\n\tFsync = Off\n');
    expect(d(dir, {})).toBe(false);
    expect(d(dir, { GITMEM_FSYNC: '1' })).toBe(true);
    writeFileSync(join(dir, 'config'), '[gitmem]\n\tfsync = yes\n');
    expect(d(dir, { GITMEM_FSYNC: 'false' })).toBe(false);
    expect(d(dir, { GITMEM_FSYNC: 'maybe' })).toBe(true); // not a boolean: the config decides
  });

  it('reads only the [gitmem] section, the last value winning', () => {
    expect(gitmemConfigValue('[core]\nfsync = a\n[gitmem] fsync = "b"\n[other]\nfsync = c\n', 'fsync')).toBe('b');
    expect(gitmemConfigValue('[gitmem]\nfsyncx = 1\n', 'fsync')).toBeUndefined();
  });
});
