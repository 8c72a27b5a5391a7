// Runs the gitmem CLI from source (main.ts only self-starts under its built name), for CLI subprocess tests.
import { main } from '../../src/cli/main.js';

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
