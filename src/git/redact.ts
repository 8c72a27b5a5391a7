/**
 * Redaction of credentials from anything git prints or we log. Pure; applied by the runner to every
 * error field (message, argv, stdout, stderr, stack) so no caller has to remember it.
 */

const REDACTED = '<redacted>';

/** Query/fragment parameter names that carry credentials (access_token, private_token, sig, X-Amz-Signature…). */
const SECRET_PARAM = /token|key|sig|signature|secret|passw(?:or)?d|pwd|auth|credential|session/i;
// A parameter at the start of a query or fragment, or after a separator; percent-encoded `?` and `&` too.
const PARAM = /((?:[?&;#]|%3f|%26)([\w.~-]+)=)([^&#;\s"'`]+)/gi;

const RULES: Array<[RegExp, string]> = [
  // Any Authorization header value, with or without a scheme word (also inside -c http[.<url>].extraHeader=…).
  [
    /(authorization:\s*(?:(?:basic|bearer|token)\s+)?)(?!<redacted>|(?:basic|bearer|token)\s)[^\s"'`]+/gi,
    `$1${REDACTED}`,
  ],
  // password=… in credential-helper output or URLs' query strings
  [/(password=)[^\s"'`;&]+/gi, `$1${REDACTED}`],
  // The same well-known parameter names anywhere (a log line quoting one without its URL).
  [
    /\b((?:access|refresh|id|private|auth)_token=|api_?key=|client_secret=)(?!<redacted>)[^&#;\s"'`]+/gi,
    `$1${REDACTED}`,
  ],
  // URL user-info: scheme://user:secret@host → scheme://user:***@host ; scheme://token@host → scheme://***@host
  [/([a-z][a-z0-9+.-]*:\/\/)([^/\s:@"'`]+):([^\s/"'`]+)@/gi, '$1$2:***@'],
  [/(https?:\/\/)([^/\s:@"'`]{12,})@/gi, '$1***@'],
  // Well-known token shapes (GitHub, GitLab, Slack, OpenAI/Anthropic-style keys, JWT-ish bearer blobs).
  [/\b(gh[pousr]_)[A-Za-z0-9]{16,}/g, `$1${REDACTED}`],
  [/\b(github_pat_)[A-Za-z0-9_]{16,}/g, `$1${REDACTED}`],
  [/\b(glpat-)[A-Za-z0-9_-]{12,}/g, `$1${REDACTED}`],
  [/\b(xox[abprs]-)[A-Za-z0-9-]{8,}/g, `$1${REDACTED}`],
  [/\b(sk-(?:ant-|proj-|let-)?)[A-Za-z0-9_-]{12,}/g, `$1${REDACTED}`],
  [/\b(gitmem_)[A-Za-z0-9_-]{12,}/g, `$1${REDACTED}`],
  [/\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, REDACTED],
];

/**
 * Removes credentials from `text`. `secrets` are exact values known to be sensitive (the configured
 * token); they are removed wherever they appear, including in their base64 `user:token` forms.
 * @example redactText('Authorization: Bearer abc') === 'Authorization: Bearer <redacted>'
 */
export function redactText(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const secret of expandSecrets(secrets)) out = out.split(secret).join(REDACTED);
  for (const [re, replacement] of RULES) out = out.replace(re, replacement);
  // Credentials in a URL's query string or fragment: ?access_token=…, &private_token=…, sig=…, api_key=….
  // Over-redacting a harmless parameter whose name merely looks like one costs nothing.
  return out.replace(PARAM, (all, head: string, name: string) =>
    SECRET_PARAM.test(name) ? `${head}${REDACTED}` : all,
  );
}

/**
 * The names of credential-looking parameters in a URL's query string or fragment (none: `[]`).
 * @example secretParamNames('https://h/x.git?ref=a&access_token=t') // ['access_token']
 */
export function secretParamNames(url: string): string[] {
  return [...url.matchAll(PARAM)].map((m) => m[2] ?? '').filter((name) => SECRET_PARAM.test(name));
}

function expandSecrets(secrets: readonly string[]): string[] {
  const all = new Set<string>();
  for (const s of secrets) {
    if (s.length < 4) continue; // too short to be a credential; replacing would shred normal text
    all.add(s);
    all.add(encodeURIComponent(s));
    all.add(Buffer.from(s).toString('base64'));
    for (const user of ['x-access-token', 'gitmem', 'oauth2', 'git', 'token']) {
      all.add(Buffer.from(`${user}:${s}`).toString('base64'));
    }
  }
  // Longest first so a secret that contains another is removed whole.
  return [...all].sort((a, b) => b.length - a.length);
}

/** A perl single-quoted string: only `\` and `'` are special there, so a pattern in one is not interpolated. */
function perlString(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** A JS regex as a perl pattern string (the rules use only syntax the two share; `i` becomes `(?i)`). */
function perlPattern(re: RegExp): string {
  return perlString(re.flags.includes('i') ? `(?i)${re.source}` : re.source);
}

/** A JS replacement template (`$1<redacted>`) as a perl expression: `($1 // '') . '<redacted>'`. */
function perlReplacement(template: string): string {
  const parts = template
    .split(/\$(\d)/)
    .map((piece, i) => (i % 2 === 1 ? `($${piece} // '')` : piece === '' ? '' : perlString(piece)));
  return parts.filter((p) => p !== '').join(' . ') || "''";
}

/**
 * {@link redactText}'s rules (without known secrets) as a perl program for `perl -pe`, rendered from the same
 * table: for the one writer of a log that runs no Node — the post-commit hook when gitmem's mirror helper is gone.
 * @example execFileSync('perl', ['-pe', redactPerlProgram()], { input: 'x?access_token=abc' }).toString() === 'x?access_token=<redacted>'
 */
export function redactPerlProgram(): string {
  const rules = RULES.map(([re, template]) => `{ my $r = ${perlPattern(re)}; s{$r}{${perlReplacement(template)}}ge; }`);
  // (the groups are copied first: the name test is a match of its own, which resets them)
  const param = `{ my $r = ${perlPattern(PARAM)}; my $n = ${perlPattern(SECRET_PARAM)}; s{$r}{my ($all, $head, $name) = ($&, $1, $2); $name =~ m{$n} ? $head . ${perlString(REDACTED)} : $all}ge; }`;
  return [...rules, param].join('\n');
}

/** Redacts every element of an argv (used for error reports and debug logs). */
export function redactArgv(argv: readonly string[], secrets: readonly string[] = []): string[] {
  return argv.map((a) => redactText(a, secrets));
}
