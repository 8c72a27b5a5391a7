/**
 * Strict UTF-8 reading of memory files, with a diagnosis of the usual culprits (UTF-16 from editors or
 * PowerShell redirects, stray NUL bytes) so the agent is told what to fix.
 */
import { MemoryError } from '../errors.js';

const decoder = new TextDecoder('utf-8', { fatal: true });

/** Names the encoding problem of `bytes`, or null when it is clean UTF-8 text. */
export function diagnoseEncoding(bytes: Uint8Array): string | null {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return 'has a UTF-16LE BOM';
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return 'has a UTF-16BE BOM';
  if (bytes.includes(0)) return 'contains NUL bytes (possibly UTF-16 without a BOM)';
  try {
    decoder.decode(bytes);
    return null;
  } catch {
    return 'contains bytes that are not valid UTF-8';
  }
}

/**
 * Decodes a memory file's bytes as strict UTF-8 text; throws NOT_UTF8 with the diagnosis.
 * @example decodeMemoryText(Buffer.from('---\ndescription: x\n---\n'), 'a.md') // '---\ndescription: x…'
 */
export function decodeMemoryText(bytes: Buffer, displayPath: string): string {
  const problem = diagnoseEncoding(bytes);
  if (problem) {
    throw new MemoryError('NOT_UTF8', `${displayPath} ${problem}; convert the file to UTF-8 and retry`, {
      data: { path: displayPath },
    });
  }
  return bytes.toString('utf8');
}
