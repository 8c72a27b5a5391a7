/**
 * The prompt's parts kept between commits (see compile-prompt.ts): a commit's diff moves them one path at a
 * time — the tree through tree-model.ts, the `system/` blocks parsed once per change, skill folders moved in
 * or out of the tree when their SKILL.md comes or goes — so a new commit costs what changed. While a path is
 * one compilePrompt would clean (a backslash, a leading `./` or `/`), there are no parts: the caller compiles
 * from scratch (that path may even collide with another, which compilePrompt refuses).
 */
import {
  cleanPath,
  contentOf,
  isMemoryPath,
  parseBlock,
  parseSkill,
  PERSONA_PATH,
  summaryOf,
  treeEntry,
  type Block,
  type CommittedFile,
  type PromptParts,
  type Skill,
} from './compile-prompt.js';
import { TreeModel } from './tree-model.js';

const SKILL_FOLDER = /^skills\/([^/]+)\//;
const BYTE_ORDER = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const skillDoc = (folder: string): string => `skills/${folder}/SKILL.md`;

/** The prompt's parts for a set of files that moves by single paths; see the file comment. */
export class PromptModel {
  private readonly tree = new TreeModel(['system']);
  private readonly blocks = new Map<string, Block>();
  private readonly skills = new Map<string, Skill>();
  /** Every file under `skills/<folder>/`, with its tree description: shown only while the folder is no skill. */
  private readonly folders = new Map<string, Map<string, string | undefined>>();
  private readonly irregular = new Set<string>();

  /** Adds or replaces one file. */
  set(file: CommittedFile): void {
    const { path } = file;
    this.delete(path);
    if (cleanPath(path) !== path) {
      this.irregular.add(path);
      return;
    }
    if (!isMemoryPath(path)) return;
    const description = treeEntry(file).description;
    const folder = SKILL_FOLDER.exec(path)?.[1];
    if (folder === undefined) {
      this.tree.set(path, description);
      if (path.startsWith('system/') && path.endsWith('.md')) this.blocks.set(path, parseBlock(path, contentOf(file)));
      return;
    }
    const files = this.folders.get(folder) ?? new Map<string, string | undefined>();
    this.folders.set(folder, files.set(path, description));
    if (path === skillDoc(folder)) {
      this.skills.set(folder, parseSkill(folder, summaryOf(file)));
      for (const p of files.keys()) this.tree.delete(p); // a skill's files are reached through its SKILL.md
    } else if (!this.skills.has(folder)) this.tree.set(path, description);
  }

  /** Removes one file (nothing when absent). */
  delete(path: string): void {
    if (this.irregular.delete(path)) return;
    const folder = SKILL_FOLDER.exec(path)?.[1];
    if (folder === undefined) {
      this.tree.delete(path);
      this.blocks.delete(path);
      return;
    }
    const files = this.folders.get(folder);
    if (files?.delete(path) !== true) return;
    if (files.size === 0) this.folders.delete(folder);
    if (path === skillDoc(folder)) {
      this.skills.delete(folder);
      for (const [p, description] of files) this.tree.set(p, description);
    } else this.tree.delete(path);
  }

  /** The parts compilePrompt would make of the current files, or undefined when it must be asked itself. */
  parts(): PromptParts | undefined {
    if (this.irregular.size > 0) return undefined;
    const blocks = [...this.blocks.values()]
      .filter((b) => b.path !== PERSONA_PATH)
      .sort((a, b) => BYTE_ORDER(a.path, b.path));
    const skills = [...this.skills.keys()]
      .sort((a, b) => BYTE_ORDER(skillDoc(a), skillDoc(b)))
      .map((f) => this.skills.get(f) as Skill);
    const parts: PromptParts = { blocks, skills, tree: (limits, root) => this.tree.render(limits, root) };
    const persona = this.blocks.get(PERSONA_PATH);
    if (persona !== undefined) parts.persona = persona;
    return parts;
  }
}
