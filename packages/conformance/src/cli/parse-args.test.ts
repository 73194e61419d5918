import { describe, expect, it } from 'vitest';
import { parseCliArgs } from './parse-args.js';

describe('parseCliArgs', () => {
  it.each([
    [[], { help: false }],
    [['--json', 'out.json'], { help: false, jsonFile: 'out.json' }],
    [['--json=report.json'], { help: false, jsonFile: 'report.json' }],
    [['-h'], { help: true }],
    [['--help', '--json', 'x'], { help: true, jsonFile: 'x' }],
  ])('parses %j', (args, expected) => {
    expect(parseCliArgs(args)).toEqual(expected);
  });

  it.each([
    [['--jsn', 'x'], 'unknown option --jsn'],
    [['-v'], 'unknown option -v'],
    [['target'], 'unexpected argument target'],
    [['--json'], '--json needs a file name'],
    [['--json='], '--json needs a file name'],
    [['--json', '--help'], '--json needs a file name'],
    [['--json', 'a', '--json', 'b'], '--json given more than once'],
  ])('rejects %j', (args, message) => {
    expect(() => parseCliArgs(args)).toThrow(
      expect.objectContaining({ name: 'CliUsageError', code: 'cli_usage', message }),
    );
  });
});
