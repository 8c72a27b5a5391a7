import { describe, expect, it } from 'vitest';
import { advertisedObjectFormat, formatOfId, objectFormatFromConfig, zeroId } from './object-format.js';

describe('object format', () => {
  it('is read from extensions.objectformat, from repositoryformatversion 1 on, as git does', () => {
    const v1 = (ext: string): string => `[core]\n\trepositoryformatversion = 1\n[extensions]\n${ext}\n`;
    expect(objectFormatFromConfig('')).toBe('sha1');
    expect(objectFormatFromConfig('[core]\n\trepositoryformatversion = 0\n')).toBe('sha1');
    expect(objectFormatFromConfig(v1('\tobjectformat = sha256'))).toBe('sha256');
    expect(objectFormatFromConfig(v1('\tobjectFormat = "SHA256" # comment'))).toBe('sha256');
    expect(objectFormatFromConfig(v1('\tobjectformat = sha1'))).toBe('sha1');
    expect(
      objectFormatFromConfig('[core]\n\trepositoryformatversion = 0\n[extensions]\n\tobjectformat = sha256\n'),
    ).toBe('sha1');
    expect(
      objectFormatFromConfig('[core]\n\trepositoryformatversion = 1\n[extensions "x"]\n\tobjectformat = sha256\n'),
    ).toBe('sha1');
    expect(() => objectFormatFromConfig(v1('\tobjectformat = sha512'))).toThrow(/sha512/);
  });

  it("ids tell their format by length; zero ids have the format's length", () => {
    expect(formatOfId('a'.repeat(40))).toBe('sha1');
    expect(formatOfId('a'.repeat(64))).toBe('sha256');
    expect(formatOfId('a'.repeat(41))).toBeUndefined();
    expect(formatOfId('A'.repeat(40))).toBeUndefined();
    expect(zeroId('sha256')).toBe('0'.repeat(64));
  });

  it("a remote's format is read from its advertised capability (v2 and v0), SHA-1 when none is advertised", () => {
    expect(advertisedObjectFormat('12:00 pkt-line.c:80 packet:          git< object-format=sha256\n')).toBe('sha256');
    expect(
      advertisedObjectFormat(
        'packet:    ls-remote< 0000000000000000000000000000000000000000 capabilities^{}\\0report-status object-format=sha256 agent=git/2.39\n',
      ),
    ).toBe('sha256');
    expect(
      advertisedObjectFormat('packet:  upload-pack> object-format=sha256\npacket:    ls-remote< version 2\n'),
    ).toBe('sha1');
    expect(advertisedObjectFormat('')).toBe('sha1');
  });
});
