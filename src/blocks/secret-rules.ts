/**
 * The credential rules, as data: which shapes of text are credentials. Written for gitmem after the rule sets
 * of gitleaks and secretlint's recommended preset (the same providers and token formats), in a form that scans
 * in linear time on a backtracking regex engine:
 *
 * - a **token rule** is a fixed prefix followed by one run of its character class, taken atomically
 *   (`(?=(run))\1`: the engine never backtracks into the run) and then checked whole by an anchored test. A
 *   match always consumes its run, so the scan moves on past it and every character is looked at a bounded
 *   number of times;
 * - an **anchored rule** finds a short literal (a PEM header, `AccountKey=`, `://`, `secret_key =`) and reads
 *   what follows with a sticky, bounded pattern at that position only.
 *
 * Every quantifier is bounded or atomic. `keywords` (lower case) are a pre-filter: a rule runs only when the
 * text contains one of them, as gitleaks does.
 *
 * The token rules are here; the anchored ones in secret-anchored-rules.ts, their shapes in secret-rule-types.ts.
 */
import { ANCHORED_RULES } from './secret-anchored-rules.js';
import type { SecretRule, TokenRule } from './secret-rule-types.js';

const test =
  (re: RegExp) =>
  (token: string): boolean =>
    re.test(token);

const TOKEN_RULES: readonly TokenRule[] = [
  {
    kind: 'token',
    id: 'aws-access-key-id',
    title: 'AWS access key id',
    keywords: ['akia', 'asia', 'abia', 'acca', 'agpa', 'aida', 'aipa', 'anpa', 'anva', 'aroa', 'a3t'],
    prefix: '(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|AROA)',
    run: '[A-Z0-9]',
    max: 40,
    shown: 4,
    valid: test(/^.{4}[A-Z2-7]{16}$/),
    examples: ['AKIAIOSFODNN7EXAMPLE'],
  },
  {
    kind: 'token',
    id: 'gcp-api-key',
    title: 'Google API key',
    keywords: ['aiza'],
    prefix: 'AIza',
    run: '[0-9A-Za-z_-]',
    max: 60,
    shown: 4,
    valid: test(/^AIza[0-9A-Za-z_-]{35}$/),
  },
  {
    kind: 'token',
    id: 'gcp-oauth-secret',
    title: 'Google OAuth client secret',
    keywords: ['gocspx-'],
    prefix: 'GOCSPX-',
    run: '[0-9A-Za-z_-]',
    max: 60,
    shown: 7,
    valid: test(/^GOCSPX-[0-9A-Za-z_-]{28}$/),
  },
  {
    kind: 'token',
    id: 'github-token',
    title: 'GitHub token',
    keywords: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'],
    prefix: 'gh[pousr]_',
    run: '[A-Za-z0-9]',
    max: 260,
    shown: 4,
    valid: test(/^gh[pousr]_[A-Za-z0-9]{36,255}$/),
  },
  {
    kind: 'token',
    id: 'github-fine-grained-token',
    title: 'GitHub fine-grained token',
    keywords: ['github_pat_'],
    prefix: 'github_pat_',
    run: '[A-Za-z0-9_]',
    max: 120,
    shown: 11,
    valid: test(/^github_pat_[A-Za-z0-9_]{80,100}$/),
  },
  {
    kind: 'token',
    id: 'gitlab-token',
    title: 'GitLab token',
    keywords: ['glpat-', 'gldt-', 'glrt-', 'glptt-', 'glsoat-', 'gloas-', 'glft-'],
    prefix: 'gl(?:pat|dt|rt|ptt|soat|oas|ft)-',
    run: '[A-Za-z0-9_.-]',
    max: 100,
    shown: 6,
    valid: test(/^gl[a-z]{2,4}-[A-Za-z0-9_.-]{20,90}$/),
  },
  {
    kind: 'token',
    id: 'slack-token',
    title: 'Slack token',
    keywords: ['xox'],
    prefix: 'xox[abeprs]-',
    run: '[A-Za-z0-9-]',
    max: 260,
    shown: 5,
    valid: test(/^xox[abeprs]-(?:\d-)?\d{8,14}-[A-Za-z0-9-]{8,240}$/),
  },
  {
    kind: 'token',
    id: 'openai-key',
    title: 'OpenAI API key',
    keywords: ['t3blbkfj'],
    prefix: 'sk-',
    run: '[A-Za-z0-9_-]',
    max: 300,
    shown: 3,
    valid: (t) =>
      t.includes('T3BlbkFJ') &&
      (/^sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{40,250}$/.test(t) || /^sk-[A-Za-z0-9]{48}$/.test(t)),
  },
  {
    kind: 'token',
    id: 'anthropic-key',
    title: 'Anthropic API key',
    keywords: ['sk-ant-'],
    prefix: 'sk-ant-',
    run: '[A-Za-z0-9_-]',
    max: 200,
    shown: 7,
    valid: test(/^sk-ant-(?:api|admin|oat)\d{2}-[A-Za-z0-9_-]{80,150}$/),
  },
  {
    kind: 'token',
    id: 'stripe-key',
    title: 'Stripe key',
    keywords: ['sk_live_', 'sk_test_', 'rk_live_', 'rk_test_'],
    prefix: '[sr]k_(?:live|test)_',
    run: '[A-Za-z0-9]',
    max: 260,
    shown: 8,
    valid: test(/^[sr]k_(?:live|test)_[A-Za-z0-9]{20,250}$/),
  },
  {
    kind: 'token',
    id: 'npm-token',
    title: 'npm access token',
    keywords: ['npm_'],
    prefix: 'npm_',
    run: '[A-Za-z0-9]',
    max: 60,
    shown: 4,
    valid: test(/^npm_[A-Za-z0-9]{36}$/),
  },
  {
    kind: 'token',
    id: 'huggingface-token',
    title: 'Hugging Face token',
    keywords: ['hf_'],
    prefix: 'hf_',
    run: '[A-Za-z0-9]',
    max: 60,
    shown: 3,
    valid: test(/^hf_[A-Za-z]{34}$/),
  },
  {
    kind: 'token',
    id: 'sendgrid-key',
    title: 'SendGrid API key',
    keywords: ['sg.'],
    prefix: 'SG\\.',
    run: '[A-Za-z0-9_.-]',
    max: 100,
    shown: 3,
    valid: test(/^SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/),
  },
  {
    kind: 'token',
    id: 'shopify-token',
    title: 'Shopify token',
    keywords: ['shpat_', 'shpss_', 'shpca_', 'shppa_'],
    prefix: 'shp(?:at|ss|ca|pa)_',
    run: '[A-Fa-f0-9]',
    max: 60,
    shown: 6,
    valid: test(/^shp[a-z]{2}_[A-Fa-f0-9]{32}$/),
  },
  {
    kind: 'token',
    id: 'digitalocean-token',
    title: 'DigitalOcean token',
    keywords: ['dop_v1_', 'doo_v1_', 'dor_v1_'],
    prefix: 'do[opr]_v1_',
    run: '[a-f0-9]',
    max: 80,
    shown: 7,
    valid: test(/^do[opr]_v1_[a-f0-9]{64}$/),
  },
  {
    kind: 'token',
    id: 'jwt',
    title: 'JSON Web Token',
    keywords: ['eyj'],
    prefix: 'eyJ',
    run: '[A-Za-z0-9_.-]',
    max: 8000,
    shown: 3,
    valid: (t) => isJwt(t.replace(/\.+$/, '')),
  },
];

/** Three base64url segments whose first decodes to a JSON header naming its algorithm. */
function isJwt(token: string): boolean {
  if (!/^eyJ[A-Za-z0-9_-]{8,600}\.eyJ[A-Za-z0-9_-]{8,6000}\.[A-Za-z0-9_-]{16,1400}$/.test(token)) return false;
  try {
    const header: unknown = JSON.parse(Buffer.from(token.slice(0, token.indexOf('.')), 'base64url').toString('utf8'));
    return (
      typeof header === 'object' && header !== null && typeof (header as Record<string, unknown>)['alg'] === 'string'
    );
  } catch {
    return false;
  }
}

/**
 * Every rule, specific ones first (the generic assignment rule in secrets.ts runs after them and yields to
 * any of their findings).
 */
export const SECRET_RULES: readonly SecretRule[] = [...TOKEN_RULES, ...ANCHORED_RULES];
