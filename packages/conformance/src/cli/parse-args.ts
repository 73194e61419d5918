import { ConformanceError } from '../errors.js';
import { SUBJECT_KEYS } from '../subjects/subject-suites.js';

/** The `relay` target: play the gateway against a live connector. */
export interface RelayCommand {
  readonly kind: 'relay';
  readonly connector: string;
  readonly gatewayId: string;
  readonly secret: string;
  readonly platform?: string;
  /** The connector's HTTP base for the side channels (`/relay/policy`, `/relay/media`, `/relay/enroll`). */
  readonly edgeUrl?: string;
  /** With `enrollmentToken`: the caller identity bearer `/relay/enroll` accepts. */
  readonly identityToken?: string;
  readonly enrollmentToken?: string;
}

/** The `agent` target: play the runtime against a live HTTP webhook agent. */
export interface AgentCommand {
  readonly kind: 'agent';
  readonly webhook: string;
  readonly secret?: string;
  readonly wakeUrl?: string;
  readonly agentId?: string;
}

/** The `hearthnet` target: call a live HearthNet node. */
export interface HearthNetCommand {
  readonly kind: 'hearthnet';
  readonly node: string;
  readonly community: string;
  readonly seedHex?: string;
  readonly keyFile?: string;
  /** Poll `GET /pubsub/v1/subscribe` (`--subscribe`), on this topic when given (`--topic`). */
  readonly subscribe?: true;
  readonly topic?: string;
  /** Check blob transfer: `read` (`file.read` only) or `put` (the caller is trusted: `file.put` too). */
  readonly blobs?: 'read' | 'put';
  /**
   * The capability the call cases call (`--capability`, default `market.post`), with `--input` / `--params`
   * (JSON objects; default: the catalogue's sample request of that capability).
   */
  readonly capability?: string;
  readonly input?: string;
  readonly params?: string;
  /** `contract` (default) or `reference`: a node in the Python reference's dialect (`--dialect`). */
  readonly dialect?: 'contract' | 'reference';
  /** Leave out the `GET /manifest` cases (`--no-manifest`). */
  readonly noManifest?: true;
  /** Leave out the gossip sync cases (`--no-sync`). */
  readonly noSync?: true;
  /** Also push a signed event of the caller through `POST /sync/v1/events` (`--sync-push`). */
  readonly syncPush?: true;
}

/** What the command line asked to do. */
export type CliCommand =
  | { readonly kind: 'bundled' }
  | RelayCommand
  | AgentCommand
  | HearthNetCommand
  | { readonly kind: 'fixtures-list' }
  | { readonly kind: 'fixtures-export'; readonly directory: string };

/** What the command line asked for. */
export interface CliOptions {
  readonly command: CliCommand;
  /** Write the suite reports as JSON to this file. */
  readonly jsonFile?: string;
  /** A baseline of case ids known to fail (see `readExpectedFailures`). */
  readonly expectedFailuresFile?: string;
  /** A module describing more implementations to check (see `ConformanceSubjects`). */
  readonly subjectsModule?: string;
  /**
   * Run only the rows these names select (`--only`, repeatable): a suite name, a suite-name prefix
   * ending at a dot (`agent-connector`), a subject's name, or `subjects` for every `--subjects` row.
   */
  readonly only?: readonly string[];
  /** Fail the run when a case is unobserved (`--require-full`). */
  readonly requireFull?: true;
  /** Print usage and exit. */
  readonly help: boolean;
  /** Print the package version and exit (`--version`). */
  readonly version?: true;
}

export const USAGE = `Usage:
  agentwire-conformance [--subjects MODULE] [shared options]
  agentwire-conformance relay --connector URL --gateway-id ID --secret S [--platform NAME]
                              [--edge-url URL [--identity-token T --enrollment-token T]] [shared options]
  agentwire-conformance agent --webhook URL [--secret S] [--wake-url URL] [--agent ID] [shared options]
  agentwire-conformance hearthnet --node URL --community ID [--seed HEX | --key-file PATH]
                                  [--dialect contract|reference]
                                  [--capability NAME [--input JSON] [--params JSON]]
                                  [--subscribe [--topic T]] [--blobs read|put]
                                  [--no-manifest] [--no-sync | --sync-push] [shared options]
  agentwire-conformance fixtures (--list | --export DIR)
  agentwire-conformance --version | --help

Without a target, runs every conformance suite against the implementations bundled with agentwire.
The targets run a black-box suite against a live implementation in any language:
  relay       plays the gateway against a relay connector (ws://host/relay or https://host):
              upgrade auth and 4401 closes, hello/descriptor, every advertised op, inbound frames,
              inbound_ack redelivery, interrupts. --platform is the platform of the hello (default relay).
              With --edge-url (the connector's HTTP base) also the side channels: /relay/policy and
              /relay/media with the channel token, and /relay/enroll when --identity-token and a
              one-time --enrollment-token are given (it enrolls a gateway <id>-conformance).
  agent       plays the runtime against an HTTP webhook agent: deliver (augment, template), wake,
              HMAC-signed requests when --secret is given; prints the receipts. --agent names the
              agent (default conformance-agent), --wake-url its wake endpoint.
  hearthnet   calls a HearthNet node over HTTP as a member of --community: signed calls (of
              --capability, default market.post, with --input and --params, default the catalogue's
              sample request of that capability; a capability outside the catalogue needs --input), errors,
              replay protection, streams, the signed manifest at GET /manifest (--no-manifest leaves
              it out) and the gossip endpoints GET /sync/v1/heads and POST /sync/v1/events (a forged
              event must be refused; --sync-push also pushes a signed event of the caller; --no-sync
              leaves them out); with --subscribe the long-poll GET /pubsub/v1/subscribe (local-only and
              other members' chat topics refused), with --blobs file.read (read) or file.put +
              file.read of a small blob (put: the node must trust the caller). The identity is the
              32-byte seed given in hex, the device.ed25519 seed file (or its keys directory), or a
              fresh key pair. --dialect reference tests a node in the Python reference's dialect for
              what it is: its calls, manifest and health in the reference forms, and each contract rule
              it breaks as a finding of its own (unsigned or forged calls and events accepted, header
              routing, unsigned answers and manifest, schema hashes, sync heads).
  fixtures    lists the language-neutral fixture files with their case counts, or copies them to DIR.

Shared options (before or after the target):
  --subjects MODULE         also check the implementations MODULE describes: a path (.js/.mjs; a .ts
                            file when node runs with a TypeScript loader) or a package name, whose
                            default export names them by interface, e.g. { skillStores: [{ name,
                            create }] } (the keys are listed below; each entry is its suite's options
                            plus a name); one row per implementation
  --only NAME               run only the rows NAME selects (repeatable): a suite (relay.live), a suite
                            prefix (agent-connector), a subject's name, or "subjects" for every
                            --subjects row
  --expected-failures FILE  known failures, one per line (# starts a comment): CASE_ID for every row
                            that runs the case, or CASE_ID @ SUBJECT for one row; a listed case passes
                            when it fails, and a listed case that passes fails the run as stale
  --require-full            fail the run when a case could not run because the implementation cannot
                            be observed (the verdict says "unobserved: N cases not run")
  --json FILE               also write the full reports as JSON to FILE (its folder must exist)
  -h, --help                show this help
  --version                 print the version

Keys of a --subjects module:
${wrap(SUBJECT_KEYS.join(', '), 100, '  ')}

Progress goes to stderr (one live line per suite on a terminal); colours only on a terminal, never
when NO_COLOR is set.

Exit status: 0 when every suite passed, 1 when a case failed, an expected failure went stale or (with
--require-full) a case was unobserved, 2 for a usage error.`;

type FlagKind = 'value' | 'switch';

/** The flags of each command, by name, with the key they fill. */
const COMMAND_FLAGS: Readonly<
  Record<string, Readonly<Record<string, readonly [key: string, kind: FlagKind]>>>
> = {
  bundled: {},
  relay: {
    '--connector': ['connector', 'value'],
    '--gateway-id': ['gatewayId', 'value'],
    '--secret': ['secret', 'value'],
    '--platform': ['platform', 'value'],
    '--edge-url': ['edgeUrl', 'value'],
    '--identity-token': ['identityToken', 'value'],
    '--enrollment-token': ['enrollmentToken', 'value'],
  },
  agent: {
    '--webhook': ['webhook', 'value'],
    '--secret': ['secret', 'value'],
    '--wake-url': ['wakeUrl', 'value'],
    '--agent': ['agentId', 'value'],
  },
  hearthnet: {
    '--node': ['node', 'value'],
    '--community': ['community', 'value'],
    '--seed': ['seedHex', 'value'],
    '--key-file': ['keyFile', 'value'],
    '--subscribe': ['subscribe', 'switch'],
    '--topic': ['topic', 'value'],
    '--blobs': ['blobs', 'value'],
    '--capability': ['capability', 'value'],
    '--dialect': ['dialect', 'value'],
    '--input': ['input', 'value'],
    '--params': ['params', 'value'],
    '--no-manifest': ['noManifest', 'switch'],
    '--no-sync': ['noSync', 'switch'],
    '--sync-push': ['syncPush', 'switch'],
  },
  fixtures: {
    '--list': ['list', 'switch'],
    '--export': ['directory', 'value'],
  },
};

/** The options every command takes, with their kind; `--only` may be given several times. */
const SHARED_FLAGS: Readonly<Record<string, FlagKind>> = {
  '--json': 'value',
  '--expected-failures': 'value',
  '--subjects': 'value',
  '--only': 'value',
  '--require-full': 'switch',
};

/** The one shared option that may be repeated. */
const REPEATABLE = '--only';

const REQUIRED: Readonly<Record<string, readonly string[]>> = {
  relay: ['--connector', '--gateway-id', '--secret'],
  agent: ['--webhook'],
  hearthnet: ['--node', '--community'],
};

/**
 * Parses the CLI arguments (without the node and script paths): an optional target first, then its
 * flags and the shared ones, as `--flag value` or `--flag=value`.
 *
 * @throws {ConformanceError} `cli_usage`: for an unknown target or flag, a stray argument, a flag missing its
 *   value or given twice, a missing required flag, or flags that exclude each other.
 */
export function parseCliArgs(args: readonly string[]): CliOptions {
  const targetIndex = targetPosition(args);
  const named = targetIndex === undefined ? undefined : args[targetIndex];
  const target = named ?? 'bundled';
  const flags = COMMAND_FLAGS[target];
  if (flags === undefined || named === 'bundled') {
    throw new ConformanceError('cli_usage', `unknown target ${named}`);
  }
  const values = new Map<string, string | true>();
  const only: string[] = [];
  let help = false;
  let version = false;
  for (let i = 0; i < args.length; i++) {
    if (i === targetIndex) continue;
    const arg = args[i]!;
    if (arg === '-h' || arg === '--help') {
      help = true;
      continue;
    }
    if (arg === '--version') {
      version = true;
      continue;
    }
    if (!arg.startsWith('-')) throw new ConformanceError('cli_usage', `unexpected argument ${arg}`);
    const equals = arg.indexOf('=');
    const name = equals < 0 ? arg : arg.slice(0, equals);
    const kind = SHARED_FLAGS[name] ?? flags[name]?.[1];
    if (kind === undefined) {
      throw new ConformanceError(
        'cli_usage',
        target === 'bundled' ? `unknown option ${name}` : `unknown option ${name} for ${target}`,
      );
    }
    if (target === 'fixtures' && SHARED_FLAGS[name] !== undefined) {
      throw new ConformanceError('cli_usage', `${name} does not apply to fixtures`);
    }
    if (values.has(name) && name !== REPEATABLE)
      throw new ConformanceError('cli_usage', `${name} given more than once`);
    if (kind === 'switch') {
      if (equals >= 0) throw new ConformanceError('cli_usage', `${name} takes no value`);
      values.set(name, true);
      continue;
    }
    const value = equals < 0 ? args[++i] : arg.slice(equals + 1);
    if (value === undefined || value === '' || (equals < 0 && value.startsWith('-'))) {
      throw new ConformanceError('cli_usage', `${name} needs a value`);
    }
    if (name === REPEATABLE) only.push(value);
    values.set(name, value);
  }
  const shared = {
    help,
    ...(version ? { version: true as const } : {}),
    ...optional('jsonFile', values.get('--json')),
    ...optional('expectedFailuresFile', values.get('--expected-failures')),
    ...optional('subjectsModule', values.get('--subjects')),
    ...(only.length > 0 ? { only } : {}),
    ...(values.has('--require-full') ? { requireFull: true as const } : {}),
  };
  if (help || version) return { command: { kind: 'bundled' }, ...shared };
  for (const flag of REQUIRED[target] ?? []) {
    if (!values.has(flag)) throw new ConformanceError('cli_usage', `${target} needs ${flag}`);
  }
  return { command: buildCommand(target, flags, values), ...shared };
}

/**
 * Where the target is: the first argument that is neither a shared option (with its value) nor
 * `--help`; `undefined` when there is none before the first other option.
 */
function targetPosition(args: readonly string[]): number | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.startsWith('-')) return i;
    if (arg === '-h' || arg === '--help') continue;
    const name = arg.includes('=') ? arg.slice(0, arg.indexOf('=')) : arg;
    if (arg === '--version') continue;
    const kind = SHARED_FLAGS[name];
    if (kind === undefined) return undefined;
    // `--json FILE`: the next argument is the value, not the target.
    if (kind === 'value' && name === arg) i++;
  }
  return undefined;
}

function buildCommand(
  target: string,
  flags: Readonly<Record<string, readonly [key: string, kind: FlagKind]>>,
  values: ReadonlyMap<string, string | true>,
): CliCommand {
  if (target === 'fixtures') {
    const list = values.has('--list');
    const directory = values.get('--export');
    if (list === (directory !== undefined))
      throw new ConformanceError('cli_usage', 'fixtures needs either --list or --export DIR');
    return typeof directory === 'string' ? { kind: 'fixtures-export', directory } : { kind: 'fixtures-list' };
  }
  if (target === 'hearthnet' && values.has('--seed') && values.has('--key-file')) {
    throw new ConformanceError('cli_usage', '--seed and --key-file exclude each other');
  }
  if (
    target === 'relay' &&
    (values.has('--identity-token') || values.has('--enrollment-token')) &&
    !(values.has('--identity-token') && values.has('--enrollment-token') && values.has('--edge-url'))
  ) {
    throw new ConformanceError(
      'cli_usage',
      '--identity-token and --enrollment-token go together, with --edge-url',
    );
  }
  if (target === 'hearthnet' && values.has('--sync-push') && values.has('--no-sync')) {
    throw new ConformanceError('cli_usage', '--sync-push and --no-sync exclude each other');
  }
  if (target === 'hearthnet' && values.has('--topic') && !values.has('--subscribe')) {
    throw new ConformanceError('cli_usage', '--topic needs --subscribe');
  }
  if (
    target === 'hearthnet' &&
    (values.has('--input') || values.has('--params')) &&
    !values.has('--capability')
  ) {
    throw new ConformanceError('cli_usage', '--input and --params need --capability');
  }
  for (const flag of ['--input', '--params']) {
    const text = values.get(flag);
    if (typeof text !== 'string') continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw new ConformanceError('cli_usage', `${flag} must be a JSON object, got ${text}`);
    }
  }
  const dialect = values.get('--dialect');
  if (target === 'hearthnet' && dialect !== undefined && dialect !== 'contract' && dialect !== 'reference') {
    throw new ConformanceError('cli_usage', '--dialect is contract or reference');
  }
  if (dialect === 'reference') {
    const contractOnly = ['--subscribe', '--topic', '--blobs', '--no-manifest', '--no-sync', '--sync-push'];
    const given = contractOnly.filter((flag) => values.has(flag));
    if (given.length > 0)
      throw new ConformanceError('cli_usage', `${given[0]} does not apply to --dialect reference`);
  }
  const blobs = values.get('--blobs');
  if (target === 'hearthnet' && blobs !== undefined && blobs !== 'read' && blobs !== 'put') {
    throw new ConformanceError('cli_usage', '--blobs is read or put');
  }
  const fields: Record<string, string | true> = {};
  for (const [flag, value] of values) {
    const key = flags[flag]?.[0];
    if (key !== undefined) fields[key] = value;
  }
  return { kind: target, ...fields } as CliCommand;
}

function optional<K extends string>(key: K, value: string | true | undefined): { [P in K]?: string } {
  return typeof value === 'string' ? ({ [key]: value } as { [P in K]: string }) : {};
}

/** `text` broken at spaces into lines of at most `width` characters, each starting with `indent`. */
function wrap(text: string, width: number, indent: string): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && indent.length + line.length + 1 + word.length > width) {
      lines.push(indent + line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(indent + line);
  return lines.join('\n');
}
