/** The memory tool's use of the one line-style rule (blocks/line-style.ts), which merges share. */
export { restyle } from '../blocks/line-style.js';
