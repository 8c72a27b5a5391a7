/**
 * The prompt's parts kept between commits (see compile-prompt.ts), in one layout (layouts.ts): a commit's diff
 * moves them one path at a time — the tree through tree-model.ts, the core's blocks parsed once per change (a
 * routing index as compile-index.ts shows it), the directories holding deferred memory counted, skill folders moved in
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
  summaryOf,
  treeEntry,
  type Block,
  type CommittedFile,
  type PromptParts,
  type Skill,
} from './compile-prompt.js';
import { indexBlock, type DeferredDirectory } from './compile-index.js';
import { LAYOUTS, type LayoutRow } from './layouts.js';
import { TreeModel } from './tree-model.js';

const SKILL_FOLDER = /^skills\/([^/]+)\//;
const BYTE_ORDER = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const skillDoc = (folder: string): string => `skills/${folder}/SKILL.md`;

/** The prompt's parts for a set of files that moves by single paths; see the file comment. */
export class PromptModel {
  private readonly tree: TreeModel;
  private readonly persona: string;
  /** Deferred memory files (layout with indexes), and how many each directory holds. */
  private readonly deferred = new Set<string>();
  private readonly deferredDirs = new Map<string, number>();
  private readonly blocks = new Map<string, Block>();
  private readonly skills = new Map<string, Skill>();
  /** Every file under `skills/<folder>/`, with its tree description: shown only while the folder is no skill. */
  private readonly folders = new Map<string, Map<string, string | undefined>>();
  private readonly irregular = new Set<string>();

  constructor(private readonly layout: LayoutRow = LAYOUTS.system) {
    this.tree = new TreeModel(layout.prompt === 'blocks' ? ['system'] : []);
    this.persona = layout.corePath('persona');
  }

  /** A file in a directory of deferred memory, as compile-index.ts deferredDirectories counts it. */
  private countDeferred(path: string, add: boolean): void {
    const kind = this.layout.classify(path);
    if (this.layout.prompt !== 'index' || (kind !== 'memory' && kind !== 'index') || this.layout.isCore(path)) return;
    if (!path.includes('/') || this.deferred.has(path) === add) return;
    const dir = path.slice(0, path.lastIndexOf('/'));
    const n = (this.deferredDirs.get(dir) ?? 0) + (add ? 1 : -1);
    if (add) this.deferred.add(path);
    else this.deferred.delete(path);
    if (n > 0) this.deferredDirs.set(dir, n);
    else this.deferredDirs.delete(dir);
  }

  /** Adds or replaces one file. */
  set(file: CommittedFile): void {
    const { path } = file;
    this.delete(path);
    if (cleanPath(path) !== path) {
      this.irregular.add(path);
      return;
    }
    if (!isMemoryPath(path)) return;
    const description = treeEntry(file, this.layout).description;
    const folder = SKILL_FOLDER.exec(path)?.[1];
    if (folder === undefined) {
      this.tree.set(path, description);
      this.countDeferred(path, true);
      if (!this.layout.isCore(path)) return;
      const text = contentOf(file);
      const index = this.layout.classify(path) === 'index';
      this.blocks.set(path, index ? indexBlock(this.layout, path, text) : parseBlock(path, text));
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
      this.countDeferred(path, false);
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
      .filter((b) => b.path !== this.persona)
      .sort((a, b) => BYTE_ORDER(a.path, b.path));
    const skills = [...this.skills.keys()]
      .sort((a, b) => BYTE_ORDER(skillDoc(a), skillDoc(b)))
      .map((f) => this.skills.get(f) as Skill);
    const parts: PromptParts = { blocks, skills, tree: (limits, root) => this.tree.render(limits, root) };
    const persona = this.blocks.get(this.persona);
    if (persona !== undefined) parts.persona = persona;
    if (this.layout.prompt === 'index') {
      const indexOf = (dir: string): string | null => {
        const index = this.layout.indexFile === null ? null : `${dir}/${this.layout.indexFile}`;
        return index !== null && this.deferred.has(index) ? index : null;
      };
      const deferred: DeferredDirectory[] = [...this.deferredDirs.keys()]
        .sort()
        .map((d) => ({ path: d, index: indexOf(d) }));
      Object.assign(parts, { deferred, coreLabel: this.layout.coreLabel, layout: this.layout });
    }
    return parts;
  }
}
