// CI's second pass runs the integration tests with GITMEM_FAST_PATHS=0 (.ci/run): the switch is set for code a
// test calls below the composition root too, and hermeticGitEnv hands it to every handle and CLI a test opens.
import { beforeAll } from 'vitest';

beforeAll(async () => {
  if (process.env['GITMEM_FAST_PATHS'] === undefined) return;
  const [{ fastPathsSwitch }, { setFastPaths }] = await Promise.all([
    import('../../src/config.js'),
    import('../../src/fast-paths.js'),
  ]);
  setFastPaths(fastPathsSwitch(process.env));
});
