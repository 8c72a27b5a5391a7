/**
 * The host a confined process sees, per platform, as plain data: the read-only runtime a shell, git and
 * node need (reads are an allow-list: nothing else of the host is visible), and the secrets that stay
 * hidden even when an operator's added read path covers them.
 */

/** Platforms with a kernel sandbox backend. */
export type SandboxPlatform = 'linux' | 'darwin';

/** The empty directory HOME points to inside the sandbox (bwrap: a private tmpfs; macOS: the system's own). */
export const SANDBOX_HOME = '/var/empty';

/**
 * The runtime every confined process may read. `/etc` is listed entry by entry: the rest of it (shadow,
 * sudoers, ssh host keys, …) is never visible. Entries missing on a host are skipped.
 */
export const SYSTEM_READ_ROOTS: Readonly<Record<SandboxPlatform, readonly string[]>> = {
  linux: [
    '/usr',
    '/bin',
    '/sbin',
    '/lib',
    '/lib32',
    '/lib64',
    '/libx32',
    '/etc/alternatives',
    '/etc/ld.so.cache',
    '/etc/ld.so.conf',
    '/etc/ld.so.conf.d',
    '/etc/passwd',
    '/etc/group',
    '/etc/nsswitch.conf',
    '/etc/host.conf',
    '/etc/hosts',
    '/etc/resolv.conf',
    '/etc/gai.conf',
    '/etc/services',
    '/etc/protocols',
    '/etc/localtime',
    '/etc/timezone',
    '/etc/locale.alias',
    '/etc/ssl/certs',
    '/etc/ssl/openssl.cnf',
    '/etc/ca-certificates',
    '/etc/gitconfig',
    '/etc/mime.types',
    '/etc/magic',
    '/etc/terminfo',
    '/etc/inputrc',
    '/etc/shells',
  ],
  darwin: [
    '/usr',
    '/bin',
    '/sbin',
    '/System',
    '/Library/Apple',
    '/Library/Developer',
    '/Library/Frameworks',
    '/Applications/Xcode.app/Contents/Developer',
    '/opt/homebrew',
    '/private/var/db/dyld',
    '/private/var/db/timezone',
    '/private/var/select',
    '/private/etc/passwd',
    '/private/etc/group',
    '/private/etc/hosts',
    '/private/etc/resolv.conf',
    '/private/etc/services',
    '/private/etc/protocols',
    '/private/etc/localtime',
    '/private/etc/ssl',
    '/private/etc/gitconfig',
    '/private/etc/shells',
  ],
};

/** Never visible, whatever read path is added around them. */
export const SYSTEM_SECRETS: Readonly<Record<SandboxPlatform, readonly string[]>> = {
  linux: [
    '/etc/shadow',
    '/etc/shadow-',
    '/etc/gshadow',
    '/etc/gshadow-',
    '/etc/sudoers',
    '/etc/sudoers.d',
    '/etc/ssh',
    '/etc/ssl/private',
    '/etc/security/opasswd',
    '/etc/krb5.keytab',
    '/etc/machine-id',
  ],
  darwin: [
    '/private/etc/master.passwd',
    '/private/etc/sudoers',
    '/private/etc/sudoers.d',
    '/private/etc/ssh',
    '/private/var/db/dslocal',
    '/private/var/root',
    '/Library/Keychains',
  ],
};

/** Entries of a user's home that hold credentials: hidden even when a read path exposes the home. */
export const HOME_SECRETS: readonly string[] = [
  '.ssh',
  '.gnupg',
  '.aws',
  '.azure',
  '.kube',
  '.docker',
  '.config/gcloud',
  '.config/gh',
  '.config/git/credentials',
  '.netrc',
  '.git-credentials',
  '.npmrc',
  '.pypirc',
  '.password-store',
  '.local/share/keyrings',
  '.gitmem',
];
