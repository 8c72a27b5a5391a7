/**
 * A seeded corpus of FAKE credentials in real formats, and of look-alikes that are not credentials. Every fake
 * is assembled at run time from a split prefix and seeded random characters, so the repository never holds a
 * string a push-protection scanner would take for a token, and no value is ever a real secret.
 */

import { rng as seeded } from './rng.js';

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
const ALNUM = UPPER + LOWER + DIGITS;
const B64 = ALNUM + '+/';
const B64URL = ALNUM + '-_';
const HEX = '0123456789abcdef';
const B32 = UPPER + '234567';

/** A fake credential: the text to write, the rule that must catch it, and the value itself (never to be echoed). */
export interface FakeSecret {
  name: string;
  rule: string;
  text: string;
  /** The secret part of `text`: a refusal must never contain it. */
  value: string;
}

/** Joins parts, so that no literal in this file has a token's shape. */
const j = (...parts: string[]): string => parts.join('');

function pemBody(r: (n: number, cs: string) => string, lines: number): string {
  return Array.from({ length: lines }, () => r(64, B64)).join('\n');
}

/**
 * At least 30 fake credentials, one per format, from `seed`.
 * @example fakeSecrets(7).length >= 30
 */
export function fakeSecrets(seed = 20261201): FakeSecret[] {
  const rnd = seeded(seed);
  const r = (n: number, cs: string): string =>
    Array.from({ length: n }, () => cs[Math.floor(rnd() * cs.length)]).join('');
  const b64v = (n: number): string => j(r(n - 2, B64), r(1, DIGITS), '/');
  const out: FakeSecret[] = [];
  const add = (name: string, rule: string, value: string, text: (v: string) => string = (v) => v): void =>
    void out.push({ name, rule, value, text: text(value) });
  add('aws access key id', 'aws-access-key-id', j('AK', 'IA', r(16, B32)), (v) => `aws access key: ${v}`);
  add('aws temporary key id', 'aws-access-key-id', j('AS', 'IA', r(16, B32)), (v) => `AWS_ACCESS_KEY_ID=${v}`);
  add('aws secret assignment', 'aws-secret-access-key', b64v(40), (v) => `aws_secret_access_key = ${v}`);
  add('aws secret env', 'aws-secret-access-key', b64v(40), (v) => `export AWS_SECRET_ACCESS_KEY="${v}"`);
  const keyId = r(40, HEX);
  add('gcp service account json', 'gcp-service-account-key', keyId, (v) =>
    [
      '{',
      '  "type": "service_account",',
      '  "project_id": "demo-project",',
      `  "private_key_id": "${v}",`,
      `  "private_key": "-----BEGIN ${'PRIVATE'} KEY-----\\n${r(64, B64)}\\n-----END PRIVATE KEY-----\\n",`,
      '  "client_email": "bot@demo-project.iam.gserviceaccount.com"',
      '}',
    ].join('\n'),
  );
  add('gcp api key', 'gcp-api-key', j('AI', 'za', r(35, B64URL)), (v) => `maps key ${v}`);
  add(
    'google oauth client secret',
    'gcp-oauth-secret',
    j('GOC', 'SPX-', r(28, B64URL)),
    (v) => `client secret is ${v}`,
  );
  add(
    'azure storage connection string',
    'azure-storage-key',
    j(r(84, B64), '=='),
    (v) => `DefaultEndpointsProtocol=https;AccountName=demo;${'Account'}Key=${v};EndpointSuffix=core.windows.net`,
  );
  add(
    'azure service bus',
    'azure-storage-key',
    j(r(43, B64), '='),
    (v) => `Endpoint=sb://demo.servicebus.windows.net/;SharedAccessKeyName=Root;${'SharedAccess'}Key=${v}`,
  );
  for (const p of ['p', 'o', 's', 'u', 'r'])
    add(`github gh${p}_ token`, 'github-token', j('gh', p, '_', r(36, ALNUM)), (v) => `- GitHub token: ${v}`);
  add('github fine-grained token', 'github-fine-grained-token', j('github', '_pat_', r(22, ALNUM), '_', r(59, ALNUM)));
  add('gitlab personal token', 'gitlab-token', j('gl', 'pat-', r(20, B64URL)), (v) => `gitlab: ${v}`);
  add('gitlab runner token', 'gitlab-token', j('gl', 'rt-', r(20, B64URL)));
  add(
    'slack bot token',
    'slack-token',
    j('xo', 'xb-', r(11, DIGITS), '-', r(12, DIGITS), '-', r(24, ALNUM)),
    (v) => `SLACK_BOT=${v}`,
  );
  add(
    'slack user token',
    'slack-token',
    j('xo', 'xp-', r(11, DIGITS), '-', r(11, DIGITS), '-', r(12, DIGITS), '-', r(32, HEX)),
  );
  add(
    'slack webhook',
    'slack-webhook',
    j('T', r(10, UPPER + DIGITS), '/B', r(10, UPPER + DIGITS), '/', r(24, ALNUM)),
    (v) => `post to https://hooks.${'slack'}.com/services/${v}`,
  );
  add(
    'openai legacy key',
    'openai-key',
    j('sk', '-', r(20, ALNUM), 'T3Blbk', 'FJ', r(20, ALNUM)),
    (v) => `OPENAI_API_KEY=${v}`,
  );
  add('openai project key', 'openai-key', j('sk', '-proj-', r(74, B64URL), 'T3Blbk', 'FJ', r(74, B64URL)));
  add('anthropic key', 'anthropic-key', j('sk', '-ant-', 'api03-', r(93, B64URL), 'AA'), (v) => `anthropic: ${v}`);
  add('stripe live key', 'stripe-key', j('sk', '_live_', r(24, ALNUM)));
  add('stripe restricted key', 'stripe-key', j('rk', '_test_', r(24, ALNUM)));
  add('npm token', 'npm-token', j('np', 'm_', r(36, ALNUM)), (v) => `//registry.npmjs.org/:_authToken=${v}`);
  add('hugging face token', 'huggingface-token', j('h', 'f_', r(34, UPPER + LOWER)));
  add('sendgrid key', 'sendgrid-key', j('S', 'G.', r(22, B64URL), '.', r(43, B64URL)));
  add('digitalocean token', 'digitalocean-token', j('do', 'p_v1_', r(64, HEX)));
  add('shopify token', 'shopify-token', j('shp', 'at_', r(32, HEX)));
  for (const kind of ['RSA ', 'EC ', 'OPENSSH ', 'ENCRYPTED ', '']) {
    const body = pemBody(r, 4);
    add(
      `${kind || 'PKCS8 '}private key`,
      'private-key',
      body.split('\n')[0] ?? '',
      () => `-----BEGIN ${kind}${'PRIVATE'} KEY-----\n${body}\n-----END ${kind}PRIVATE KEY-----`,
    );
  }
  const pgp = pemBody(r, 3);
  add(
    'pgp private key block',
    'private-key',
    pgp.split('\n')[0] ?? '',
    () =>
      `-----BEGIN PGP ${'PRIVATE'} KEY BLOCK-----\nVersion: GnuPG v2\n\n${pgp}\n-----END PGP PRIVATE KEY BLOCK-----`,
  );
  const jwtHead = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
  const jwtBody = Buffer.from(JSON.stringify({ sub: r(8, DIGITS), name: 'Test' })).toString('base64url');
  add('jwt', 'jwt', j(jwtHead, '.', jwtBody, '.', r(43, B64URL)), (v) => `session: Bearer ${v}`);
  add(
    'postgres url password',
    'url-password',
    j(r(6, LOWER), r(4, DIGITS), '!'),
    (v) => `DATABASE_URL=postgres://app:${v}@db.internal:5432/app`,
  );
  add(
    'https url password',
    'url-password',
    j(r(10, ALNUM), r(2, DIGITS)),
    (v) => `clone from https://deploy:${v}@git.example.com/team/repo.git`,
  );
  add('generic api_key', 'generic-secret-assignment', j(r(30, ALNUM), r(2, DIGITS)), (v) => `api_key = "${v}"`);
  add(
    'generic yaml secret',
    'generic-secret-assignment',
    j(r(22, ALNUM), r(2, DIGITS), '-', r(8, ALNUM)),
    (v) => `client_secret: ${v}`,
  );
  add(
    'generic password',
    'generic-secret-assignment',
    j(r(14, ALNUM), r(2, DIGITS), '#', r(3, ALNUM)),
    (v) => `db_password=${v}`,
  );
  return out;
}

/** At least 30 texts that look a little like credentials and are not. */
export function lookAlikes(seed = 7): Array<{ name: string; text: string }> {
  const rnd = seeded(seed);
  const r = (n: number, cs: string): string =>
    Array.from({ length: n }, () => cs[Math.floor(rnd() * cs.length)]).join('');
  const uuid = (): string => `${r(8, HEX)}-${r(4, HEX)}-4${r(3, HEX)}-a${r(3, HEX)}-${r(12, HEX)}`;
  return [
    { name: 'git sha in prose', text: `Fixed in commit ${r(40, HEX)} last week.` },
    { name: 'short sha', text: `see ${r(7, HEX)} and ${r(12, HEX)}` },
    { name: 'sha256 hash', text: `sha256: ${r(64, HEX)}` },
    { name: 'docker digest', text: `image: node@sha256:${r(64, HEX)}` },
    { name: 'uuid', text: `conversation id ${uuid()}` },
    { name: 'uuid as id field', text: `id: ${uuid()}` },
    { name: 'base64 image in markdown', text: `Logo: ![logo](data:image/png;base64,${r(600, B64)}==) end.` },
    { name: 'base64 of words', text: `"hello world" in base64 is aGVsbG8gd29ybGQ=` },
    { name: 'aws docs example key id', text: `e.g. ${'AKIA'}IOSFODNN7EXAMPLE (from the AWS docs)` },
    { name: 'aws docs example secret', text: `aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCY${'EXAMPLE'}KEY` },
    {
      name: 'lorem ipsum',
      text: 'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua.',
    },
    { name: 'long words', text: 'pneumonoultramicroscopicsilicovolcanoconiosis and antidisestablishmentarianism' },
    { name: 'url without password', text: 'docs at https://github.com/example/repo/blob/main/README.md#install' },
    { name: 'ssh url with user only', text: 'remote: ssh://git@github.com:22/example/repo.git' },
    { name: 'url with port', text: 'server on http://localhost:8080/api/v1?x=1' },
    { name: 'placeholder password in url', text: 'postgres://user:password@localhost:5432/db' },
    { name: 'templated password in url', text: 'https://bot:${TOKEN}@git.example.com/repo.git' },
    { name: 'masked password', text: 'password: ********' },
    { name: 'placeholder password', text: 'password: <your password here>' },
    { name: 'env reference', text: 'api_key = ${API_KEY}' },
    { name: 'process env', text: 'token: process.env.GITHUB_TOKEN' },
    { name: 'secrets reference', text: 'password: {{ secrets.DB_PASSWORD }}' },
    { name: 'pem placeholder', text: `-----BEGIN ${'PRIVATE'} KEY-----\n...\n-----END PRIVATE KEY-----` },
    { name: 'public key', text: `-----BEGIN PUBLIC KEY-----\n${r(64, B64)}\n-----END PUBLIC KEY-----` },
    { name: 'ssh public key', text: `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI${r(43, B64)} me@laptop` },
    { name: 'token prefix in prose', text: 'GitHub classic tokens start with ghp_ and npm ones with npm_.' },
    { name: 'short sk', text: 'the sk-1234 sku is discontinued' },
    { name: 'jwt header in prose', text: 'a JWT header starts with eyJhbGciOi (base64 of {"alg")' },
    { name: 'max tokens', text: 'max_tokens: 4096\ntemperature: 0.2' },
    { name: 'token budget', text: 'token budget: 8000 tokens; secret: she prefers tea' },
    { name: 'primary key', text: 'primary key: customer_id' },
    { name: 'npm config env name', text: 'npm_config_registry is read by npm' },
    { name: 'slack-ish word', text: 'xoxo-team says hi' },
    { name: 'css colours', text: 'color: #ff00aa; background: #123456;' },
    { name: 'versions and dates', text: 'v1.2.3 released 2025-06-01T12:00:00Z, call +1-555-0100' },
    { name: 'email', text: 'write to ana.lopez@example.com' },
    { name: 'azure placeholder', text: `${'Account'}Key=<your-account-key>;` },
    { name: 'key binding', text: 'hotkey: ctrl+shift+p' },
    { name: 'markdown table', text: '| name | tokens |\n|---|---|\n| human.md | 1234 |' },
  ];
}
