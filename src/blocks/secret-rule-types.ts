/**
 * The shapes of a credential rule (secret-rules.ts explains the two kinds): apart from the rule tables so the
 * token and anchored tables, and the scanner that runs them, share one definition.
 */

/** How much of a matched value a message may show: the rule's public prefix, never more. */
export interface SecretRuleBase {
  /** Stable id, named in refusals (`github-token`). */
  id: string;
  /** What it is, for people (`GitHub token`). */
  title: string;
  /** Lower-case words one of which the text must contain for the rule to run. */
  keywords: readonly string[];
  /** Characters of the value a preview may show (the format's fixed prefix, e.g. 4 for `ghp_`). */
  shown: number;
  /** Published documentation examples that are not credentials. */
  examples?: readonly string[];
}

/** Prefix + one atomic run, then `valid(token)` on the whole token (prefix included). */
export interface TokenRule extends SecretRuleBase {
  kind: 'token';
  /** Regex source of the prefix (after a word boundary). */
  prefix: string;
  /** Regex source of one character class: the token's body. */
  run: string;
  /** Longest body read. */
  max: number;
  valid: (token: string) => boolean;
}

/** A literal anchor, then `read(text, end)`: the secret value after it, or null. */
export interface AnchoredRule extends SecretRuleBase {
  kind: 'anchored';
  /** Regex source of the anchor (searched with the g flag; keep it short and bounded). */
  anchor: string;
  flags?: string;
  /** The value after the anchor ending at `end`; `start` is where the anchor began. */
  read: (text: string, start: number, end: number) => { start: number; value: string } | null;
}

export type SecretRule = TokenRule | AnchoredRule;
