/**
 * What an authentication, host-key or name-resolution failure means, in one actionable line. git says
 * "could not read Username … terminal prompts disabled" for a missing token, a rejected one and a token in
 * the wrong scheme alike; the difference is in what we sent and in the server's answer (status and
 * `WWW-Authenticate` schemes from git's curl trace). Pure; never sees the token.
 */
import type { GitFailureKind } from './classify.js';

/** The last 401/403 answer in git's curl trace, with the schemes its `WWW-Authenticate` headers offer. */
export interface AuthRefusal {
  status: number;
  /** Lower-case scheme names, e.g. `['basic']`. */
  schemes: string[];
}

export interface FailureContext {
  /** The scheme of the Authorization header gitmem sent (`bearer`, `basic`), or undefined when it sent none. */
  sent: string | undefined;
  refusal: AuthRefusal | undefined;
  /** The remote's URL when known (the runner's `remote` option, or a URL in the command's arguments). */
  remote: string | undefined;
}

export type AuthProblem =
  | 'no_credentials' // the remote asked for credentials and gitmem had none for it
  | 'helper_rejected' // git's own credential setup supplied credentials and the remote refused them
  | 'rejected' // the remote refused the token gitmem sent (401/403)
  | 'wants_basic' // a Bearer token went to a server that only offers Basic
  | 'wants_bearer' // a Basic header went to a server that only offers Bearer
  | 'ssh_key_refused' // the SSH server accepted none of the client's keys
  | 'host_key_unknown' // ssh has no known_hosts entry for the server
  | 'host_key_changed'; // the server's key differs from the recorded one

const CRED_HINT =
  'set GITMEM_GIT_TOKEN or put the token in $GITMEM_HOME/credentials (a `url` line there must cover this remote)';

/**
 * The problem and its message for a failure of kind `auth`, `host_key` or `dns`; undefined for other kinds.
 * @example explainFailure('auth', "fatal: could not read Username for 'https://h': terminal prompts disabled", { sent: undefined, refusal: undefined, remote: undefined })
 */
export function explainFailure(
  kind: GitFailureKind,
  text: string,
  ctx: FailureContext,
): { problem?: AuthProblem; message: string } | undefined {
  if (kind === 'dns') {
    const host =
      /Could not resolve host(?:name)?:? ([^\s:']+)/i.exec(text)?.[1] ?? hostOf(ctx.remote)?.host ?? 'of the remote';
    return {
      message: `the host name ${host} does not resolve (DNS): check the URL's host name and this machine's network; not retried`,
    };
  }
  if (kind === 'host_key') return hostKeyProblem(text, ctx.remote);
  if (kind !== 'auth') return undefined;
  if (/Permission denied \(publickey/i.test(text)) {
    const at = hostOf(ctx.remote);
    const where = at ? ` at ${at.host}` : '';
    const message = `the SSH server${where} accepted none of this machine's keys (Permission denied (publickey)): check \`ssh-add -l\` and that the public key is authorized on the remote (gitmem's token is for HTTPS remotes only)`;
    return { problem: 'ssh_key_refused', message };
  }
  return httpProblem(text, ctx);
}

function httpProblem(text: string, ctx: FailureContext): { problem: AuthProblem; message: string } {
  // The URL we configured first: a server's own text could name another origin.
  const origin = httpOriginOf(ctx.remote) ?? /(?:for|access) '(https?:\/\/[^/']+)/i.exec(text)?.[1];
  const at = origin ? ` at ${origin}` : '';
  const inText = /(?:returned error|HTTP):? ?(40[13])\b/.exec(text)?.[1];
  const status = ctx.refusal?.status ?? (inText ? Number(inText) : undefined);
  if (ctx.sent === undefined) {
    if (/Authentication failed|Invalid username or (?:password|token)/i.test(text)) {
      const message = `the remote${at} rejected the credentials git's own setup supplied (a credential helper): fix them there, or ${CRED_HINT}`;
      return { problem: 'helper_rejected', message };
    }
    const why =
      status === 403
        ? 'refused access (HTTP 403) and no credentials were sent'
        : 'asked for credentials and none are configured';
    return { problem: 'no_credentials', message: `the remote${at} ${why}: ${CRED_HINT}` };
  }
  const offered = ctx.refusal?.schemes ?? [];
  if (status === 401 && ctx.sent === 'bearer' && offered.includes('basic') && !offered.includes('bearer')) {
    const message = `the remote${at} only accepts Basic auth and the token was sent as Bearer: set GITMEM_GIT_AUTH_SCHEME=basic (and GITMEM_GIT_USERNAME if the host wants a particular user name; default x-access-token), or \`scheme = basic\` in $GITMEM_HOME/credentials`;
    return { problem: 'wants_basic', message };
  }
  if (status === 401 && ctx.sent === 'basic' && offered.includes('bearer') && !offered.includes('basic')) {
    const message = `the remote${at} only accepts Bearer tokens and the token was sent as Basic: set GITMEM_GIT_AUTH_SCHEME=bearer, or \`scheme = bearer\` in $GITMEM_HOME/credentials`;
    return { problem: 'wants_bearer', message };
  }
  const shown = status ? `HTTP ${status}` : 'authentication failed';
  const message = `the remote${at} rejected the token (${shown}): check that it is valid, not expired, and has access to this repository`;
  return { problem: 'rejected', message };
}

function hostKeyProblem(text: string, remote: string | undefined): { problem: AuthProblem; message: string } {
  const at = hostOf(remote) ?? hostInSshText(text);
  const name = at ? (at.port && at.port !== '22' ? `[${at.host}]:${at.port}` : at.host) : 'the server';
  if (/REMOTE HOST IDENTIFICATION HAS CHANGED/i.test(text)) {
    const message = `the SSH host key of ${name} is not the one recorded in known_hosts (REMOTE HOST IDENTIFICATION HAS CHANGED), which can be an attack: if the server's key really changed, remove the old entry with \`ssh-keygen -R '${name}'\` and add the new one after checking its fingerprint`;
    return { problem: 'host_key_changed', message };
  }
  const scan = at
    ? `ssh-keyscan -p ${at.port ?? '22'} ${at.host} >> ~/.ssh/known_hosts`
    : 'ssh-keyscan -p <port> <host> >> ~/.ssh/known_hosts';
  const message = `the SSH host key of ${name} is not known here, so ssh refused to connect: check the server's fingerprint, then add it with \`${scan}\` (or let ssh record a new host's key on first use: GIT_SSH_COMMAND='ssh -o StrictHostKeyChecking=accept-new')`;
  return { problem: 'host_key_unknown', message };
}

/**
 * Host and port of an SSH or HTTP(S) remote URL (`ssh://u@h:2222/p`, scp-like `u@h:p`, `https://h/p`).
 * @example hostOf('ssh://git@127.0.0.1:12222/srv/mem.git') // { host: '127.0.0.1', port: '12222' }
 */
export function hostOf(remote: string | undefined): { host: string; port?: string } | undefined {
  if (!remote) return undefined;
  const url = /^([a-z][a-z0-9+.-]*):\/\/(?:[^@/]*@)?(\[[^\]]+\]|[^:/]+)(?::(\d+))?/i.exec(remote);
  if (url) return { host: (url[2] ?? '').replace(/^\[|\]$/g, ''), ...(url[3] ? { port: url[3] } : {}) };
  const scp = /^(?:[^@/:]+@)?([^:/]+):(?!\/\/)/.exec(remote);
  return scp?.[1] ? { host: scp[1] } : undefined;
}

function hostInSshText(text: string): { host: string; port?: string } | undefined {
  const m =
    /host key is known for \[?([^\]\s]+)\]?(?::(\d+))?|authenticity of host '\[?([^\]\s']+)\]?(?::(\d+))?/i.exec(text);
  const host = m?.[1] ?? m?.[3];
  const port = m?.[2] ?? m?.[4];
  return host ? { host, ...(port ? { port } : {}) } : undefined;
}

function httpOriginOf(remote: string | undefined): string | undefined {
  if (!remote || !/^https?:\/\//i.test(remote)) return undefined;
  try {
    return new URL(remote).origin;
  } catch {
    return undefined;
  }
}
