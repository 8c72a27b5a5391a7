/**
 * The hook's client: perl, because Debian's git depends on it (its core modules start in ~10 ms, Node in
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

const PERL = String.raw`
use strict; use warnings; use Socket; use Fcntl;
my ($ticket, $th);
END { close $th if $th; unlink $ticket if defined $ticket; }
$SIG{ALRM} = sub { exit 75 }; alarm 25;
my $entry = shift // exit 75;
my $sock = $ENV{GITMEM_HOOK_SOCKET} // "";
if ($sock eq "") {
  exit 75 if ($ENV{GITMEM_DAEMON} // "") =~ /^\s*(?:0|off|false|no)\s*$/i;
  exit 75 if ($ENV{GITMEM_SANDBOX} // "") ne "";
  my $base;
  for my $k (qw(XDG_RUNTIME_DIR TMPDIR)) { my $v = $ENV{$k} // ""; $v =~ s/^\s+|\s+$//g; if ($v ne "") { $base = $v; last } }
  $base //= ($ENV{TMP} || $ENV{TEMP} || "/tmp"); $base =~ s{(?<=.)/+$}{};
  exit 75 unless $base =~ m{^/};
  require Digest::MD5;
  $sock = "$base/gitmem-$</hook-" . substr(Digest::MD5::md5_hex("$<\0$entry"), 0, 16) . ".sock";
  $sock =~ s{/+}{/}g;
  my $name = sprintf("%d-%08x", $$, int(rand(4294967295)));
  $ticket = "$sock.$name.ticket";
  sysopen($th, $ticket, O_WRONLY | O_CREAT | O_EXCL, 0600) or do { undef $ticket; exit 75 };
}
exit 75 if length($sock) > 100;
socket(my $s, PF_UNIX, SOCK_STREAM, 0) or exit 75;
connect($s, pack_sockaddr_un($sock)) or exit 75;
require Cwd;
my $cwd = Cwd::getcwd() // exit 75;
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
