import { describe, expect, it } from 'vitest';
import { parseFetchUpdate, quickRelation, type SyncHint } from './quick-relation.js';

const H = 'a'.repeat(40);
const R0 = 'b'.repeat(40);
const R1 = 'c'.repeat(40);
const hint = (over: Partial<SyncHint> = {}): SyncHint => ({
  head: H,
  upstream: 'origin/main',
  ahead: 1,
  behind: 0,
  remoteBefore: R0,
  ...over,
});
const ff = { kind: 'fast_forward' as const, from: 'bbbbbbb', to: 'ccccccc' };

describe('fetch report and the relation sync can take as known', () => {
  it('reads the fetch ref-update line: fast-forward, forced, new branch, none, several', () => {
    const from = 'From /dev/shm/r\n';
    expect(parseFetchUpdate(`${from}   a5e9f5c..e6a8099  main       -> origin/main\n`)).toEqual({
      kind: 'fast_forward',
      from: 'a5e9f5c',
      to: 'e6a8099',
    });
    expect(parseFetchUpdate(`${from}   a5e9f5c..e6a8099  main -> origin/*\n`)).toMatchObject({ kind: 'fast_forward' });
    expect(parseFetchUpdate(`${from} + e6a8099...1b69ca5 main       -> origin/main  (forced update)\n`)).toEqual({
      kind: 'other',
    });
    expect(parseFetchUpdate(`${from} * [new branch]      main       -> origin/main\n`)).toEqual({ kind: 'other' });
    expect(parseFetchUpdate('')).toEqual({ kind: 'none' });
    const two = `${from}   a5e9f5c..e6a8099  main -> origin/main\n   1111111..2222222  x -> origin/x\n`;
    expect(parseFetchUpdate(two)).toEqual({ kind: 'other' });
  });

  it('trusts the status counts only while main and origin/main are what it saw', () => {
    expect(quickRelation(hint({ ahead: 2, behind: 3 }), H, R0, { kind: 'none' })).toEqual({
      kind: 'counted',
      ahead: 2,
      behind: 3,
    });
    expect(quickRelation(hint(), 'd'.repeat(40), R0, { kind: 'none' })).toBeUndefined(); // a commit landed since
    expect(quickRelation(hint({ upstream: null }), H, R0, { kind: 'none' })).toBeUndefined();
    expect(quickRelation(hint({ upstream: 'fork/main' }), H, R0, { kind: 'none' })).toBeUndefined();
    expect(quickRelation(hint({ ahead: null, behind: null }), H, R0, { kind: 'none' })).toBeUndefined();
    expect(quickRelation(hint({ remoteBefore: undefined }), H, R0, { kind: 'none' })).toBeUndefined();
    expect(quickRelation(hint(), H, undefined, { kind: 'none' })).toBeUndefined();
    expect(quickRelation(undefined, H, R0, { kind: 'none' })).toBeUndefined();
  });

  it('knows the histories are related only after a fast-forward from the commit seen, with main not behind', () => {
    expect(quickRelation(hint(), H, R1, ff)).toEqual({ kind: 'related', head: H, onto: R1 });
    expect(quickRelation(hint({ behind: 1 }), H, R1, ff)).toBeUndefined();
    expect(quickRelation(hint(), H, R1, { kind: 'other' })).toBeUndefined(); // forced: maybe unrelated now
    expect(quickRelation(hint(), H, R1, { ...ff, from: 'fffffff' })).toBeUndefined(); // moved by someone else first
    expect(quickRelation(hint(), H, 'e'.repeat(40), ff)).toBeUndefined(); // moved again after our fetch
  });
});
