/**
 * The bearer token of the MCP HTTP server: generated (256 bits) or read from an operator's 0600 file,
 * compared in constant time, and kept out of every log line.
 */
import { constants, fstatSync, openSync, readSync, closeSync } from 'node:fs';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { MemoryError } from '../index.js';
import { redactText } from '../internals.js';

/** What a token may be: RFC 6750's token68 characters, 16 to 1024 of them. */
const TOKEN = /^[A-Za-z0-9\-._~+/]{16,1024}=*$/;
/** A token file is a line, not a document. */
const MAX_TOKEN_FILE_BYTES = 4096;

/**
 * A fresh token: 32 random bytes, base64url (43 characters).
 * @example generateToken().length === 43
 */
export function generateToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Checks a token an operator or a harness gave; INVALID_ARGUMENT (never echoing it) otherwise.
 * @example assertUsableToken('x') // throws: too short
 */
export function assertUsableToken(token: string, source = 'the token'): string {
  if (!TOKEN.test(token)) {
    throw new MemoryError(
      'INVALID_ARGUMENT',
      `${source} is not a usable bearer token: 16-1024 characters of A-Z a-z 0-9 - . _ ~ + / (then = padding)`,
      {
        data: { field: 'token', length: token.length },
      },
    );
  }
  return token;
}

/**
 * The token in `file`: a regular file private to its owner (mode 0600 or stricter, else
 * CREDENTIALS_INSECURE), read through one descriptor so the mode checked is the mode of what is read.
 * @example readTokenFile('/run/secrets/gitmem-mcp-token')
 */
export function readTokenFile(file: string): string {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    throw new MemoryError('INVALID_ARGUMENT', `cannot read the token file ${file} (${code})`, {
      data: { file, errno: code },
    });
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile())
      throw new MemoryError('INVALID_ARGUMENT', `the token file ${file} is not a regular file`, { data: { file } });
    if (process.platform !== 'win32' && (st.mode & 0o077) !== 0) {
      const mode = (st.mode & 0o777).toString(8);
      throw new MemoryError(
        'CREDENTIALS_INSECURE',
        `the token file ${file} is readable by group or others (mode ${mode}); run: chmod 600 ${file}`,
        {
          data: { file, mode: st.mode & 0o777 },
        },
      );
    }
    const buf = Buffer.alloc(MAX_TOKEN_FILE_BYTES + 1);
    const n = readSync(fd, buf, 0, buf.length, 0);
    if (n > MAX_TOKEN_FILE_BYTES)
      throw new MemoryError('INVALID_ARGUMENT', `the token file ${file} is longer than ${MAX_TOKEN_FILE_BYTES} bytes`, {
        data: { file },
      });
    return assertUsableToken(buf.subarray(0, n).toString('utf8').trim(), `the token in ${file}`);
  } finally {
    closeSync(fd);
  }
}

const digest = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest();

/**
 * Whether an `Authorization` header carries `token` as a Bearer credential. Both sides are hashed first,
 * so the comparison takes the same time whatever the header's length or content.
 * @example bearerMatches('Bearer abc…', 'abc…') === true
 */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const m = /^Bearer[ ]+([^\s]+)[ ]*$/i.exec(header ?? '');
  return timingSafeEqual(digest(m?.[1] ?? ''), digest(token)) && m !== null;
}

/**
 * A function that replaces every occurrence of `token` in a line (a log line, an error message), then
 * redacts the rest as every gitmem message is (a request's error may quote a URL with a credential).
 * @example redactor('s3cr3t…')('got s3cr3t…') === 'got [redacted]'
 */
export function redactor(token: string): (line: string) => string {
  return (line) => redactText(line.split(token).join('[redacted]'));
}
