/**
 * Turns the bytes of a text file given on the command line into text, strictly: memory is UTF-8, so UTF-8
 * (a BOM is dropped) passes, UTF-16 with a byte-order mark (what Windows editors and PowerShell redirects
 * write) is converted, and anything else is refused — never committed with U+FFFD or NUL characters.
 */
import { MemoryError } from '../errors.js';

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
const UTF16LE = new TextDecoder('utf-16le', { fatal: true, ignoreBOM: false });
const UTF16BE = new TextDecoder('utf-16be', { fatal: true, ignoreBOM: false });

function decoderFor(bytes: Uint8Array): { decoder: InstanceType<typeof TextDecoder>; name: string } {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { decoder: UTF16LE, name: 'UTF-16LE' };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { decoder: UTF16BE, name: 'UTF-16BE' };
  return { decoder: UTF8, name: 'UTF-8' };
}

/**
 * The text of `bytes` (a file called `label` in errors); throws NOT_UTF8 naming what is wrong.
 * @example decodeTextInput(Buffer.from([0xff, 0xfe, 0x68, 0x00]), 'a.txt') === 'h'
 */
export function decodeTextInput(bytes: Uint8Array, label: string): string {
  const { decoder, name } = decoderFor(bytes);
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    const hint =
      name === 'UTF-8' ? 'is not valid UTF-8 text' : `starts with a ${name} byte-order mark but is not valid ${name}`;
    throw new MemoryError('NOT_UTF8', `${label} ${hint}; convert it to UTF-8 and retry`, {
      data: { path: label, encoding: name },
    });
  }
  if (text.includes('\u0000')) {
    throw new MemoryError(
      'NOT_UTF8',
      `${label} contains NUL bytes (binary, or UTF-16 without a byte-order mark); memory holds text only`,
      {
        data: { path: label, encoding: name },
      },
    );
  }
  return text;
}
