// The suite's browser gate (test/helpers/browser-probe.ts): no executable chromium means "skip" with the
// reason — or a failed run under GITMEM_REQUIRE_BROWSER=1 — and never a downloaded browser instead.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BROWSER_SKIP_REASON_ENV, browserForTests } from '../../helpers/browser-probe.js';
import { cleanupTmp, makeTmpDir } from '../../helpers/tmp.js';

afterAll(() => cleanupTmp());

describe('browser detection for the suite', () => {
  it('skips with the reason when chromium is absent, and fails the run under GITMEM_REQUIRE_BROWSER=1', () => {
    const env: NodeJS.ProcessEnv = {};
    expect(browserForTests(env, '/nonexistent/chromium')).toEqual({
      usable: false,
      reason: '/nonexistent/chromium not found or not executable (apt-get install chromium)',
    });
    expect(env[BROWSER_SKIP_REASON_ENV]).toContain('/nonexistent/chromium not found');
    expect(() => browserForTests({ GITMEM_REQUIRE_BROWSER: '1' }, '/nonexistent/chromium')).toThrow(
      /GITMEM_REQUIRE_BROWSER=1 but \/nonexistent\/chromium not found/,
    );
  });

  it('does not take a file it cannot execute for a browser', () => {
    const file = join(makeTmpDir('gitmem-fake-chromium-'), 'chromium');
    writeFileSync(file, '#!/bin/sh\nexit 0\n', { mode: 0o644 });
    expect(browserForTests({}, file).usable).toBe(false);
  });
});
