import { describe, expect, it } from 'vitest';
import { authConfigEntries, authEnv, judgeRedirect, stripCurlTrace } from './http-auth.js';

const auth = { authorization: 'Bearer tok-123456', secrets: ['tok-123456'], urlPrefix: 'https://h.example/' };

// What git 2.39 prints with GIT_TRACE_CURL=2 GIT_TRACE_CURL_NO_DATA=1 for a refused redirect (trimmed).
const TRACE = [
  "10:57:57.184738 http.c:725              == Info: Couldn't find host h.example in the (nil) file; using defaults",
  '10:57:57.184931 http.c:672              => Send header, 0000000224 bytes (0x000000e0)',
  '10:57:57.184934 http.c:684              => Send header: GET /mem.git/info/refs?service=git-receive-pack HTTP/1.1',
  '10:57:57.184936 http.c:684              => Send header: Host: h.example',
  '10:57:57.184942 http.c:684              => Send header: Authorization: Bearer <redacted>',
  '10:57:57.184946 http.c:684              => Send header:',
  '10:57:57.189061 http.c:684              <= Recv header: HTTP/1.1 301 Moved Permanently',
  '10:57:57.189066 http.c:684              <= Recv header: Location: https://other.example:8443/mem.git/info/refs?service=git-receive-pack',
  '10:57:57.189083 http.c:684              <= Recv header:',
  '10:57:57.189099 http.c:725              == Info: Connection #0 to host h.example left intact',
  "fatal: unable to access 'https://h.example/mem.git/': The requested URL returned error: 301",
  '',
].join('\n');

describe('auth through the environment', () => {
  it('puts the scoped header and redirects-off into GIT_CONFIG_* entries, after inherited ones', () => {
    const env = authEnv(
      { PATH: '/bin', GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'a.b', GIT_CONFIG_VALUE_0: 'c', GIT_CURL_VERBOSE: '1' },
      authConfigEntries(auth),
    );
    expect(env['GIT_CONFIG_COUNT']).toBe('5');
    expect(env['GIT_CONFIG_KEY_0']).toBe('a.b');
    const pairs = [1, 2, 3, 4].map((i) => `${env[`GIT_CONFIG_KEY_${i}`]}=${env[`GIT_CONFIG_VALUE_${i}`]}`);
    expect(pairs).toEqual([
      'credential.helper=',
      'core.askPass=',
      'http.https://h.example/.extraHeader=Authorization: Bearer tok-123456',
      'http.followRedirects=false',
    ]);
    expect(env['GIT_CURL_VERBOSE']).toBeUndefined();
    expect(env).toMatchObject({ GIT_TRACE_CURL: '2', GIT_TRACE_CURL_NO_DATA: '1', GIT_TRACE_REDACT: '1' });
  });

  it('ignores a bogus inherited count instead of writing over entries it cannot place', () => {
    expect(authEnv({ GIT_CONFIG_COUNT: 'x' }, [['k.k', 'v']])).toMatchObject({
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'k.k',
    });
  });
});

describe('the curl trace', () => {
  it('reads the last 401 and the schemes its WWW-Authenticate headers offer', () => {
    const line = (dir: string, text: string): string =>
      `10:57:57.189061 http.c:684              ${dir} header: ${text}`;
    const trace = [
      line('<= Recv', 'HTTP/1.1 401 Unauthorized'),
      line('<= Recv', 'WWW-Authenticate: Basic realm="a, Bearer b", charset="UTF-8"'),
      line('<= Recv', 'www-authenticate: Negotiate'),
      "fatal: could not read Username for 'https://h.example': terminal prompts disabled",
    ].join('\n');
    const t = stripCurlTrace(trace);
    expect(t.refusal).toEqual({ status: 401, schemes: ['basic', 'negotiate'] });
    expect(t.stderr).toBe("fatal: could not read Username for 'https://h.example': terminal prompts disabled");
    expect(stripCurlTrace(TRACE).refusal).toBeUndefined();
  });

  it("keeps git's own lines and reads the redirect the trace shows", () => {
    const t = stripCurlTrace(TRACE);
    expect(t.stderr).toBe(
      "fatal: unable to access 'https://h.example/mem.git/': The requested URL returned error: 301\n",
    );
    expect(t.redirects).toEqual([
      {
        status: 301,
        method: 'GET',
        path: '/mem.git/info/refs?service=git-receive-pack',
        host: 'h.example',
        location: 'https://other.example:8443/mem.git/info/refs?service=git-receive-pack',
      },
    ]);
  });

  it('leaves stderr without a trace exactly as it was', () => {
    for (const text of ['', 'From h\n * branch main -> FETCH_HEAD\n', '12:00 not a trace line\n'])
      expect(stripCurlTrace(text)).toEqual({ stderr: text, redirects: [] });
  });
});

describe('judgeRedirect', () => {
  const hop = { status: 301, method: 'GET', path: '/old.git/info/refs?service=git-upload-pack', host: 'h.example' };
  it('follows ref discovery within the origin by rewriting the base URL', () => {
    expect(judgeRedirect({ ...hop, location: '/new.git/info/refs?service=git-upload-pack' }, 'https:')).toEqual({
      follow: true,
      fromBase: 'https://h.example/old.git',
      toBase: 'https://h.example/new.git',
    });
  });

  it('refuses another host, port, scheme or name, naming both origins', () => {
    for (const location of [
      'https://other.example/old.git/info/refs?service=git-upload-pack',
      'https://h.example:444/old.git/info/refs?service=git-upload-pack',
      'http://h.example/old.git/info/refs?service=git-upload-pack',
      'https://h.example.evil/old.git/info/refs?service=git-upload-pack',
    ]) {
      const v = judgeRedirect({ ...hop, location }, 'https:');
      expect(v, location).toMatchObject({
        follow: false,
        fromOrigin: 'https://h.example',
        toOrigin: new URL(location).origin,
      });
    }
  });

  it('refuses a same-origin redirect git could not follow either (other tail, a POST, an unreadable location)', () => {
    expect(judgeRedirect({ ...hop, location: '/elsewhere' }, 'https:')).toMatchObject({ follow: false });
    expect(
      judgeRedirect(
        { ...hop, method: 'POST', path: '/old.git/git-upload-pack', location: '/new.git/git-upload-pack' },
        'https:',
      ),
    ).toMatchObject({ follow: false });
    expect(judgeRedirect({ ...hop, location: 'http://[::1' }, 'https:')).toMatchObject({ follow: false });
  });
});
