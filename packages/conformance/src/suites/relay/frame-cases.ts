import framesFixture from '../../../fixtures/relay/frames.json' with { type: 'json' };
import { assertEqual, assertRejects, assertTrue } from '../../assert.js';
import { invalidFixtureError } from '../../errors.js';
import {
  decodeFixtureValue,
  type FixtureCase,
  readFixtureFile,
  readObject,
  readPositiveInteger,
  readString,
  sinceOf,
} from '../../fixtures/fixture-file.js';
import type { CapabilityNeed, ConformanceCase } from '../../suite.js';
import { type CapabilityMembers, providedCapabilities } from '../capability-members.js';
import { levelForTags } from './case-level.js';
import { RELAY_SUITE_VERSION } from './suite-version.js';

/** Which side sent a line: the gateway, the connector, or either. */
export type FrameDirection = 'gateway' | 'connector' | 'any';

/**
 * A decoded line: the frame written back as its plain wire object (defaulted keys filled in, unknown
 * top-level keys dropped, unknown action keys and unknown ops kept), or `ignored` for a frame this side
 * does not act on (unknown or missing `type`, a frame of the other direction).
 */
export type FrameDecodeOutcome =
  | { readonly frame: Readonly<Record<string, unknown>> }
  | { readonly ignored: true };

/** One outcome of a streaming decoder: a decoded line, or the error code of a bad one. */
export type FrameStreamOutcome = FrameDecodeOutcome | { readonly error: string };

/** A streaming NDJSON frame decoder accepting both directions. */
export interface FrameStreamDecoder {
  /** Feeds one WebSocket message (text, or binary as bytes); the outcomes of the lines it completed. */
  push(chunk: string | Uint8Array): Iterable<FrameStreamOutcome>;
  /** Ends the stream; the outcome of a non-blank unterminated line, if any. */
  end(): Iterable<FrameStreamOutcome>;
}

/** How a frame's JSON is written: `compact` (`JSON.stringify`) or `python` (the gateway's `json.dumps`). */
export type FrameJsonStyle = 'compact' | 'python';

/** The frame codec functions a relay codec may offer; each one enables its cases. */
export interface FrameCodecImplementation {
  /**
   * Decodes one wire line (with its `\n`) as a frame sent by `direction`; throws or rejects for a
   * malformed, non-object or invalid frame. Capability `decode-frame`.
   */
  decodeFrame?(line: string, direction: FrameDirection): FrameDecodeOutcome | Promise<FrameDecodeOutcome>;
  /**
   * Writes `frame` as one line, `\n` included; throws or rejects for a frame the style cannot write (a
   * non-finite number in a `compact`, standard JSON, line). Capability `encode-frame`, for the `compact` cases.
   */
  encodeFrame?(frame: Readonly<Record<string, unknown>>, style: FrameJsonStyle): string | Promise<string>;
  /** `true` when `encodeFrame` also writes the `python` style; enables those cases. */
  readonly pythonFrameStyle?: boolean;
  /**
   * A fresh streaming decoder with a longest line of `maxLineBytes` UTF-8 bytes (default 1 MiB).
   * Capability `frame-stream`.
   */
  createDecoder?(options: { readonly maxLineBytes?: number }): FrameStreamDecoder;
  /** The implementation's error code for a refused input; when given, error cases check it. */
  errorCode?(error: unknown): string | undefined;
}

const FIXTURE_NAME = 'relay/frames.json';
const SECTION_DECODE = 'relay-reference §2.4, §7.1–§7.3';
const SECTION_ENCODE = 'relay-reference §2.3';
const SECTION_STREAM = 'relay-reference §2.3';
const DIRECTIONS: ReadonlySet<string> = new Set<FrameDirection>(['gateway', 'connector', 'any']);
const STYLES: ReadonlySet<string> = new Set<FrameJsonStyle>(['compact', 'python']);
const fixture = readFixtureFile(framesFixture, FIXTURE_NAME);

/** The members of a FrameCodecImplementation that provide each capability. */
export const FRAME_MEMBERS = {
  'decode-frame': ['decodeFrame'],
  'encode-frame': ['encodeFrame'],
  'frame-stream': ['createDecoder'],
} as const satisfies CapabilityMembers<FrameCodecImplementation>;

/** `encode-frame-python`, the one frame capability a flag declares rather than a member. */
export const FRAME_PYTHON_STYLE_NEED = {
  'encode-frame-python': {
    provide: '`encodeFrame` and `pythonFrameStyle: true` in the RelayCodecImplementation',
  },
} as const satisfies Readonly<Record<string, CapabilityNeed>>;

/** The frame capabilities `implementation` declares: its members, and `encode-frame-python` by flag. */
export function frameCapabilities(implementation: FrameCodecImplementation): string[] {
  const capabilities = providedCapabilities(implementation, FRAME_MEMBERS);
  if (implementation.encodeFrame && implementation.pythonFrameStyle === true)
    capabilities.push('encode-frame-python');
  return capabilities;
}

/** Cases from `fixtures/relay/frames.json`, ids `<prefix>.frames.<fixture id>`. */
export function frameCases<Ctx extends FrameCodecImplementation>(prefix: string): ConformanceCase<Ctx>[] {
  return fixture.cases.map((entry, index) =>
    caseFor<Ctx>(`${prefix}.frames.${entry.id}`, entry, `${FIXTURE_NAME} cases[${index}]`),
  );
}

function caseFor<Ctx extends FrameCodecImplementation>(
  id: string,
  entry: FixtureCase,
  location: string,
): ConformanceCase<Ctx> {
  const common = {
    id,
    level: levelForTags(entry.tags),
    since: sinceOf(entry, location, RELAY_SUITE_VERSION),
  } as const;
  switch (entry['operation']) {
    case 'decode': {
      const line = readString(entry['line'], `${location}.line`);
      const direction = readDirection(entry['direction'], `${location}.direction`);
      const decode = (impl: Ctx) => impl.decodeFrame?.(line, direction);
      const base = { ...common, section: SECTION_DECODE, requires: 'decode-frame' } as const;
      if ('error' in entry) {
        const code = readString(entry['error'], `${location}.error`);
        return {
          ...base,
          title: `refuses ${direction} line ${entry.id} (${code})`,
          run: async (impl) => {
            const error = await assertRejects(() => decode(impl), `the line must be refused (${code})`);
            if (impl.errorCode) assertEqual(impl.errorCode(error), code, 'error code');
          },
        };
      }
      const expected = readDecodeOutcome(entry, location);
      return {
        ...base,
        title: `decodes ${direction} line ${entry.id}`,
        run: async (impl) => assertEqual(await decode(impl), expected, 'decoded line'),
      };
    }
    case 'encode': {
      const style = readStyle(entry['style'], `${location}.style`);
      const frame = () =>
        readObject(decodeFixtureValue(entry['frame'], `${location}.frame`), `${location}.frame`);
      const base = {
        ...common,
        section: SECTION_ENCODE,
        requires: style === 'python' ? 'encode-frame-python' : 'encode-frame',
      } as const;
      if ('error' in entry) {
        const code = readString(entry['error'], `${location}.error`);
        return {
          ...base,
          title: `refuses to write ${entry.id} in ${style} style (${code})`,
          run: async (impl) => {
            const error = await assertRejects(
              async () => impl.encodeFrame?.(frame(), style),
              `the frame must be refused (${code})`,
            );
            if (impl.errorCode) assertEqual(impl.errorCode(error), code, 'error code');
          },
        };
      }
      const expected = readString(entry['expected'], `${location}.expected`);
      return {
        ...base,
        title: `writes ${entry.id} in ${style} style`,
        run: async (impl) => assertEqual(await impl.encodeFrame?.(frame(), style), expected, 'wire line'),
      };
    }
    case 'stream': {
      const chunks = () => readChunks(entry['chunks'], `${location}.chunks`);
      const messages = chunks().length;
      const options =
        'maxLineBytes' in entry
          ? { maxLineBytes: readPositiveInteger(entry['maxLineBytes'], `${location}.maxLineBytes`) }
          : {};
      const expected = decodeFixtureValue(entry['expected'], `${location}.expected`);
      if (!Array.isArray(expected)) throw invalidFixtureError(`${location}.expected`, 'expected an array');
      return {
        ...common,
        title: `streams ${entry.id} (${messages} message${messages === 1 ? '' : 's'})`,
        section: SECTION_STREAM,
        requires: 'frame-stream',
        run: (impl) => {
          const decoder = impl.createDecoder?.(options);
          assertTrue(decoder !== undefined, 'createDecoder must return a decoder');
          const outcomes = chunks().flatMap((chunk) => [...decoder.push(chunk)]);
          outcomes.push(...decoder.end());
          assertEqual(outcomes, expected, 'stream outcomes');
        },
      };
    }
    default:
      throw invalidFixtureError(`${location}.operation`, 'expected "decode", "encode" or "stream"');
  }
}

function readDecodeOutcome(entry: FixtureCase, location: string): FrameDecodeOutcome {
  if (entry['ignored'] === true) return { ignored: true };
  if (!('expected' in entry)) {
    throw invalidFixtureError(location, 'a decode case needs "expected", "ignored" or "error"');
  }
  return {
    frame: readObject(decodeFixtureValue(entry['expected'], `${location}.expected`), `${location}.expected`),
  };
}

function readDirection(value: unknown, location: string): FrameDirection {
  if (typeof value !== 'string' || !DIRECTIONS.has(value)) {
    throw invalidFixtureError(location, 'expected "gateway", "connector" or "any"');
  }
  return value as FrameDirection;
}

function readStyle(value: unknown, location: string): FrameJsonStyle {
  if (typeof value !== 'string' || !STYLES.has(value)) {
    throw invalidFixtureError(location, 'expected "compact" or "python"');
  }
  return value as FrameJsonStyle;
}

/** Text messages stay strings; `{"$bytes": hex}` binary messages become bytes. */
function readChunks(value: unknown, location: string): (string | Uint8Array)[] {
  if (!Array.isArray(value)) throw invalidFixtureError(location, 'expected an array of messages');
  return value.map((chunk, i) => {
    const decoded = decodeFixtureValue(chunk, `${location}[${i}]`);
    if (typeof decoded !== 'string' && !(decoded instanceof Uint8Array)) {
      throw invalidFixtureError(`${location}[${i}]`, 'expected a string or {"$bytes": "<hex>"}');
    }
    return decoded;
  });
}
