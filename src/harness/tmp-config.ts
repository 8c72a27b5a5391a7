export { readGitmemConfig as readGitmemConfigFile } from '../internals.js';
