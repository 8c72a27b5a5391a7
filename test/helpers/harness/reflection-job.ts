/**
 * What the tests of the harness hooks' reflection share: a scripted reflection model turn sequence that writes
 * one note and commits it, waiting for a condition, and whether an agent's detached reflection job has run
 * and let go of its lock.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FakeReply } from '../fake-openai.js';

/** The Reviewed-Transcript trailer the reflection's task message asks for (read from the request). */
function trailerOf(body: Record<string, unknown>): string {
  return /Reviewed-Transcript: [^"\\]+/.exec(JSON.stringify(body['messages']))?.[0] ?? 'Reviewed-Transcript: ?';
}

/** A reflection in three model turns: write `path`, commit it with `reason`, stop. */
export function writesNote(
  path: string,
  reason: string,
  text = 'The harness session ran.',
): (body: Record<string, unknown>) => FakeReply {
  let step = 0;
  return (body) =>
    [
      {
        toolCalls: [
          { name: 'write_file', args: { path, content: `---\ndescription: What the session taught\n---\n${text}\n` } },
        ],
      },
      {
        toolCalls: [
          {
            name: 'shell',
            args: {
              command: `git add -A && git commit -q -m ${JSON.stringify(reason)} -m ${JSON.stringify(trailerOf(body))}`,
            },
          },
        ],
      },
      { text: 'done' },
    ][step++] ?? { text: 'done' };
}

/** Polls `ok` every 250 ms; throws naming `what` after `ms`. */
export async function until(what: string, ok: () => boolean, ms = 90_000): Promise<void> {
  for (const end = Date.now() + ms; !ok(); await new Promise((r) => setTimeout(r, 250))) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
  }
}

/** True once the agent's reflection job has run (its log exists) and holds no lock. */
export function jobIdle(gitmemHome: string, agent: string): () => boolean {
  const dir = join(gitmemHome, 'agents', agent, 'harness');
  return () => existsSync(join(dir, 'reflect.log')) && !existsSync(join(dir, 'reflect.lock'));
}
