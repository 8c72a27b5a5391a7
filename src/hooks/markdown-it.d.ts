// markdown-it 14 ships no types; the merge uses its factory only (typed where it is used: blocks/merge/parser.ts).
declare module 'markdown-it' {
  const markdownIt: unknown;
  export default markdownIt;
}
