/**
 * The hook's client: perl, because Debian's git depends on it (perl without modules starts in ~10 ms, Node in
 * 60+), run as `perl -e <this> -- <hook entry>`. It asks the channel named by GITMEM_HOOK_SOCKET, else the
 * CLI daemon of the install whose hook entry it is given (hook-wire.ts derives the same socket name), and
 * exits 10 (pass) or 11 (refused, the messages printed) only on a complete verdict; every other exit (75:
 * nobody answered, perl's own failure, a timeout) makes the hook start Node, which decides. Outside a
 * channel it holds a ticket open beside the socket, so the daemon can check it runs outside every sandbox.
 * The text holds no single quote: the hook script keeps it in a single-quoted shell word.
 */

/** Exit codes of the client; anything else means "no verdict". */
export const CLIENT_PASS = 10;
export const CLIENT_FAIL = 11;

// No modules: loading Socket, Fcntl, Cwd and Digest::MD5 costs more than perl itself. The socket constants
// (AF_UNIX = SOCK_STREAM = 1) and sockaddr_un layouts are those of Linux and the BSDs/macOS; the socket
// name's hash is hook-wire.ts's FNV-1a over the entry's bytes; a ticket needs no O_EXCL in a 0700 directory.
const PERL = String.raw`
my ($ticket, $th);
END { close $th if $th; unlink $ticket if defined $ticket; }
$SIG{ALRM} = sub { exit 75 }; alarm 25;
my $entry = shift // exit 75;
my $sock = $ENV{GITMEM_HOOK_SOCKET} // "";
if ($sock eq "") {
  exit 75 if ($ENV{GITMEM_DAEMON} // "") =~ /^\s*(?:0|off|false|no)\s*$/i;
  exit 75 if ($ENV{GITMEM_SANDBOX} // "") ne "";
  my $base;
  for my $k ("XDG_RUNTIME_DIR", "TMPDIR") { my $v = $ENV{$k} // ""; $v =~ s/^\s+|\s+$//g; if ($v ne "") { $base = $v; last } }
  $base //= ($ENV{TMP} || $ENV{TEMP} || "/tmp"); $base =~ s{(?<=.)/+$}{};
  exit 75 unless $base =~ m{^/};
  my $key = "";
  for my $seed (0x811c9dc5, 0x050c5d1f) {
    my $h = $seed;
    for my $c (unpack("C*", $entry)) { $h = (($h ^ $c) * 0x01000193) % 4294967296; }
    $key .= sprintf("%08x", $h);
  }
  $sock = "$base/gitmem-$</hook-$key.sock";
  $sock =~ s{/+}{/}g;
  $ticket = sprintf("%s.%d-%08x.ticket", $sock, $$, int(rand(4294967295)));
  open($th, ">", $ticket) or do { undef $ticket; exit 75 };
}
exit 75 if length($sock) > 100;
socket(my $s, 1, 1, 0) or exit 75;
my $addr = $^O eq "linux" ? pack("S Z*", 1, $sock) : pack("C C Z*", length($sock) + 3, 1, $sock);
connect($s, $addr) or exit 75;
my $cwd = readlink("/proc/self/cwd");
if (!defined $cwd || $cwd !~ m{^/}) { require Cwd; $cwd = Cwd::getcwd() // exit 75; }
my @f = ("cwd=$cwd", "pid=$$");
push @f, "ticket=" . substr($ticket, rindex($ticket, "/") + 1) if defined $ticket;
for my $k (qw(GIT_INDEX_FILE GIT_DIR GIT_WORK_TREE GIT_COMMON_DIR GIT_OBJECT_DIRECTORY GIT_ALTERNATE_OBJECT_DIRECTORIES GITMEM_HOME HOME GITMEM_SANDBOX)) {
  push @f, "env.$k=$ENV{$k}" if defined $ENV{$k};
}
my $req = "gitmem-hook 1\0" . join("", map { "$_\0" } @f) . "\0";
while (length $req) { my $n = syswrite($s, $req) // exit 75; substr($req, 0, $n) = ""; }
my $r = "";
while (1) { my $n = sysread($s, my $buf, 65536) // exit 75; last if $n == 0; $r .= $buf; exit 75 if length($r) > 4194304; }
exit 75 unless $r =~ /\Agitmem-hook-verdict ([01]) ([0-9]+)\n/;
my ($code, $len) = ($1, $2);
my $body = substr($r, length($&));
exit 75 unless length($body) == $len;
binmode STDERR; print STDERR $body;
exit($code ? ${CLIENT_FAIL} : ${CLIENT_PASS});
`;

/**
 * The perl program, as one line-per-statement text (no single quotes).
 * @example hookClientPerl().includes("'") === false
 */
export function hookClientPerl(): string {
  return PERL.trim();
}
