/**
 * The daemon's log file: one timestamped line per event, every line through gitmem's redaction (a failed
 * request's stack may quote a remote URL or a header), emptied once it passes 1 MiB.
 */
import { appendFileSync, existsSync, statSync, truncateSync } from 'node:fs';

const MAX_LOG_BYTES = 1 << 20;

/**
 * A logger appending to `path` (mode 0600); `redact` is the library's redactText (taken as a parameter: this
 * module loads before the library does). Best effort: a line that cannot be written is dropped.
 * @example const log = daemonLogger(address.log, redactText); log('listening on …')
 */
export function daemonLogger(path: string, redact: (text: string) => string): (line: string) => void {
  return (line) => {
    try {
      if (existsSync(path) && statSync(path).size > MAX_LOG_BYTES) truncateSync(path, 0);
      appendFileSync(path, `${new Date().toISOString()} ${redact(line)}\n`, { mode: 0o600 });
    } catch {
      // logging is best effort
    }
  };
}
