import { describe, expect, it } from 'vitest';
import { scanArgv } from '../../src/main.js';

const commandWords = (argv: string[]) => scanArgv(argv).words;

describe('scanArgv: the command words', () => {
  it('skips global options and their values, keeps command words and operands', () => {
    expect(commandWords(['--profile', 'work', '-o', 'json', 'contacts', 'list', '--limit', '5'])).toEqual(['contacts', 'list', '5']);
    expect(commandWords(['--json', 'deals', 'stage', 'deal_1', 'proposal'])).toEqual(['deals', 'stage', 'deal_1', 'proposal']);
    expect(commandWords(['sequences', 'enroll', 'seq_1', '-'])).toEqual(['sequences', 'enroll', 'seq_1', '-']);
    expect(commandWords(['--version'])).toEqual([]);
    expect(commandWords(['api', 'GET', '/x', '--', 'ignored'])).toEqual(['api', 'GET', '/x']);
  });
});
