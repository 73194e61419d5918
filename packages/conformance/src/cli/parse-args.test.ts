import { describe, expect, it } from 'vitest';
import { parseCliArgs } from './parse-args.js';

describe('parseCliArgs', () => {
  it.each([
    [[], { command: { kind: 'bundled' }, help: false }],
    [['--json', 'out.json'], { command: { kind: 'bundled' }, help: false, jsonFile: 'out.json' }],
    [['--json=report.json'], { command: { kind: 'bundled' }, help: false, jsonFile: 'report.json' }],
    [
      ['--expected-failures', 'known.txt'],
      { command: { kind: 'bundled' }, help: false, expectedFailuresFile: 'known.txt' },
    ],
    [['-h'], { command: { kind: 'bundled' }, help: true }],
    [['--help', '--json', 'x'], { command: { kind: 'bundled' }, help: true, jsonFile: 'x' }],
    [['relay', '--help'], { command: { kind: 'bundled' }, help: true }],
    [
      [
        'relay',
        '--connector',
        'ws://h/relay',
        '--gateway-id=gw',
        '--secret',
        's',
        '--platform',
        'discord',
        '--json',
        'r.json',
      ],
      {
        command: {
          kind: 'relay',
          connector: 'ws://h/relay',
          gatewayId: 'gw',
          secret: 's',
          platform: 'discord',
        },
        help: false,
        jsonFile: 'r.json',
      },
    ],
    [
      ['agent', '--webhook', 'http://a/p', '--secret', 'k', '--wake-url', 'http://a/w', '--agent', 'perry'],
      {
        command: {
          kind: 'agent',
          webhook: 'http://a/p',
          secret: 'k',
          wakeUrl: 'http://a/w',
          agentId: 'perry',
        },
        help: false,
      },
    ],
    [
      ['hearthnet', '--node', 'http://n', '--community', 'c', '--seed', 'ab'],
      { command: { kind: 'hearthnet', node: 'http://n', community: 'c', seedHex: 'ab' }, help: false },
    ],
    [
      [
        'relay',
        ...['--connector', 'ws://h/relay', '--gateway-id', 'gw', '--secret', 's'],
        ...['--edge-url', 'http://h', '--identity-token', 'id', '--enrollment-token', 'et'],
      ],
      {
        command: {
          kind: 'relay',
          connector: 'ws://h/relay',
          gatewayId: 'gw',
          secret: 's',
          edgeUrl: 'http://h',
          identityToken: 'id',
          enrollmentToken: 'et',
        },
        help: false,
      },
    ],
    [
      [
        'hearthnet',
        '--node',
        'http://n',
        '--community',
        'c',
        '--subscribe',
        '--topic',
        't',
        '--blobs',
        'put',
      ],
      {
        command: {
          kind: 'hearthnet',
          node: 'http://n',
          community: 'c',
          subscribe: true,
          topic: 't',
          blobs: 'put',
        },
        help: false,
      },
    ],
    [
      ['hearthnet', '--node', 'http://n', '--community', 'c', '--no-manifest', '--sync-push'],
      {
        command: { kind: 'hearthnet', node: 'http://n', community: 'c', noManifest: true, syncPush: true },
        help: false,
      },
    ],
    [['fixtures', '--list'], { command: { kind: 'fixtures-list' }, help: false }],
    [
      ['fixtures', '--export', 'out'],
      { command: { kind: 'fixtures-export', directory: 'out' }, help: false },
    ],
    [
      ['--subjects', 'conformance.subjects.mjs'],
      { command: { kind: 'bundled' }, help: false, subjectsModule: 'conformance.subjects.mjs' },
    ],
    [
      ['agent', '--webhook', 'http://a/p', '--subjects', './s.mjs'],
      { command: { kind: 'agent', webhook: 'http://a/p' }, help: false, subjectsModule: './s.mjs' },
    ],
    [
      // Shared options may come before the target (a script that always passes --subjects).
      ['--subjects=./s.mjs', '--json', 'r.json', '-h', 'agent', '--webhook', 'http://a/p'],
      { command: { kind: 'bundled' }, help: true, subjectsModule: './s.mjs', jsonFile: 'r.json' },
    ],
    [
      ['--subjects', './s.mjs', '--expected-failures=k.txt', 'agent', '--webhook', 'http://a/p'],
      {
        command: { kind: 'agent', webhook: 'http://a/p' },
        help: false,
        subjectsModule: './s.mjs',
        expectedFailuresFile: 'k.txt',
      },
    ],
    [['--version'], { command: { kind: 'bundled' }, help: false, version: true }],
    [
      // --only repeats; --require-full is a switch, also before the target.
      ['--only', 'relay.live', '--require-full', 'relay', '--connector', 'ws://h/relay', '--gateway-id', 'g'],
      undefined,
    ],
    [
      ['--only=subjects', '--only', 'agent-connector', '--require-full', '--subjects', './s.mjs'],
      {
        command: { kind: 'bundled' },
        help: false,
        subjectsModule: './s.mjs',
        only: ['subjects', 'agent-connector'],
        requireFull: true,
      },
    ],
    [
      ['--require-full', 'agent', '--webhook', 'http://a/p', '--only', 'agent-connector.contract'],
      {
        command: { kind: 'agent', webhook: 'http://a/p' },
        help: false,
        only: ['agent-connector.contract'],
        requireFull: true,
      },
    ],
  ])('parses %j', (args, expected) => {
    if (expected === undefined) {
      // A switch before the target does not swallow it: the target's required flags are still checked.
      expect(() => parseCliArgs(args)).toThrow(expect.objectContaining({ message: 'relay needs --secret' }));
      return;
    }
    expect(parseCliArgs(args)).toEqual(expected);
  });

  it.each([
    [['--jsn', 'x'], 'unknown option --jsn'],
    [['-v'], 'unknown option -v'],
    [['target'], 'unknown target target'],
    [['bundled'], 'unknown target bundled'],
    [['--json'], '--json needs a value'],
    [['--json='], '--json needs a value'],
    [['--json', '--help'], '--json needs a value'],
    [['--json', 'a', '--json', 'b'], '--json given more than once'],
    [['relay', '--connector', 'ws://h'], 'relay needs --gateway-id'],
    [['relay', '--webhook', 'x'], 'unknown option --webhook for relay'],
    [['relay', 'extra'], 'unexpected argument extra'],
    [['agent'], 'agent needs --webhook'],
    [['hearthnet', '--node', 'http://n'], 'hearthnet needs --community'],
    [
      ['hearthnet', '--node', 'http://n', '--community', 'c', '--seed', 'ab', '--key-file', 'k'],
      '--seed and --key-file exclude each other',
    ],
    [
      ['hearthnet', '--node', 'http://n', '--community', 'c', '--no-sync', '--sync-push'],
      '--sync-push and --no-sync exclude each other',
    ],
    [
      ['hearthnet', '--node', 'http://n', '--community', 'c', '--input', '{}'],
      '--input and --params need --capability',
    ],
    [
      ['hearthnet', '--node', 'http://n', '--community', 'c', '--dialect', 'python'],
      '--dialect is contract or reference',
    ],
    [
      ['hearthnet', '--node', 'http://n', '--community', 'c', '--dialect', 'reference', '--blobs', 'read'],
      '--blobs does not apply to --dialect reference',
    ],
    [
      ['hearthnet', '--node', 'http://n', '--community', 'c', '--capability', 'llm.chat', '--input', '[1]'],
      '--input must be a JSON object, got [1]',
    ],
    [
      ['hearthnet', '--node', 'http://n', '--community', 'c', '--capability', 'llm.chat', '--params', '{x'],
      '--params must be a JSON object, got {x',
    ],
    [
      ['relay', '--connector', 'ws://h', '--gateway-id', 'g', '--secret', 's', '--identity-token', 'i'],
      '--identity-token and --enrollment-token go together, with --edge-url',
    ],
    [['fixtures'], 'fixtures needs either --list or --export DIR'],
    [['fixtures', '--list', '--export', 'd'], 'fixtures needs either --list or --export DIR'],
    [['fixtures', '--list=yes'], '--list takes no value'],
    [['fixtures', '--list', '--json', 'x'], '--json does not apply to fixtures'],
    [['fixtures', '--list', '--subjects', 's.mjs'], '--subjects does not apply to fixtures'],
    [['--subjects', 's.mjs', 'fixtures', '--list'], '--subjects does not apply to fixtures'],
    [['--subjects'], '--subjects needs a value'],
    [['--json', 'r.json', 'relays'], 'unknown target relays'],
    [['--connector', 'ws://h', 'relay'], 'unknown option --connector'],
    [['--only'], '--only needs a value'],
    [['--require-full=yes'], '--require-full takes no value'],
    [['--require-full', '--require-full'], '--require-full given more than once'],
    [['fixtures', '--list', '--only', 'x'], '--only does not apply to fixtures'],
  ])('rejects %j', (args, message) => {
    expect(() => parseCliArgs(args)).toThrow(expect.objectContaining({ code: 'cli_usage', message }));
  });
});
