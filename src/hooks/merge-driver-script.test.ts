import { describe, expect, it } from 'vitest';
import { mergeDriverConfig } from './merge-driver-install.js';
import {
  driverCommand,
  driverEntry,
  MERGE_ATTRIBUTES,
  mergeDriverScript,
  withMergeAttributes,
} from './merge-driver-script.js';

const BLOCK = `${MERGE_ATTRIBUTES.join('\n')}\n`;

describe('the merge driver texts', () => {
  it('finds the driver entry beside each kind of pre-commit entry', () => {
    expect(driverEntry('/opt/g/dist/bin/pre-commit.cjs')).toBe('/opt/g/dist/bin/merge-driver.cjs');
    expect(driverEntry('/opt/g/dist/hooks/pre-commit-main.js')).toBe('/opt/g/dist/hooks/merge-driver-main.js');
  });

  it("quotes the script path for git's shell and names every install in order", () => {
    expect(driverCommand("/m/it's/.git/hooks")).toBe("'/m/it'\\''s/.git/hooks/gitmem-merge-driver' %O %A %B %L %P");
    const script = mergeDriverScript([
      { node: '/n1', entry: '/a/dist/bin/pre-commit.cjs' },
      { node: '/n2', entry: '/b/dist/hooks/pre-commit-main.js' },
    ]);
    expect(script.split('\n').filter((l) => l.startsWith('gitmem_try '))).toEqual([
      "gitmem_try '/n1' '/a/dist/bin/merge-driver.cjs'",
      "gitmem_try '/n2' '/b/dist/hooks/merge-driver-main.js'",
    ]);
    expect(script.startsWith('#!/bin/sh\n')).toBe(true);
  });

  it("keeps gitmem's attribute lines last and every other line in order", () => {
    expect(withMergeAttributes(null)).toBe(BLOCK);
    expect(withMergeAttributes(BLOCK)).toBe(BLOCK);
    expect(withMergeAttributes(`*.png binary\n${BLOCK}`)).toBe(`*.png binary\n${BLOCK}`);
    expect(withMergeAttributes('*.png binary')).toBe(`*.png binary\n${BLOCK}`);
    expect(withMergeAttributes(`${BLOCK}*.md merge=union\n`)).toBe(`*.md merge=union\n${BLOCK}`);
    expect(withMergeAttributes(`x${BLOCK}`)).toBe(`x${MERGE_ATTRIBUTES[0]}\n${BLOCK}`); // not at a line start: not ours
  });

  it('reads the [merge "gitmem"] values of a config text', () => {
    expect(
      mergeDriverConfig(
        '[core]\n\tbare = false\n[merge "gitmem"]\n\tname = gitmem markdown merge\n\tdriver = "\'/a b/x\' %O"\n[merge "other"]\n\tdriver = no\n',
      ),
    ).toEqual({ name: 'gitmem markdown merge', driver: "'/a b/x' %O" });
    expect(mergeDriverConfig('[merge "gitmem"]\n\tdriver = one\n\tdriver = two\n').driver).toBe('two');
    expect(mergeDriverConfig('')).toEqual({});
  });
});
