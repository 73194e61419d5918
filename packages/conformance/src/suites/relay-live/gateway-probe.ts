import {
  type ConnectorFrame,
  decodeConnectorFrame,
  encodeFrame,
  type GatewayFrameInput,
  type UnknownFrame,
} from '@agentwire/relay';
import { fail } from '../../assert.js';
import { isConformanceError } from '../../errors.js';
import { LiveWebSocket, type WebSocketClose } from './websocket-client.js';

/** One line the connector sent: the text, its JSON value, and the frame the codec decoded (or why not). */
export interface ReceivedLine {
  readonly raw: string;
  /** The parsed JSON, `undefined` when the line is not JSON. */
  readonly json: unknown;
  readonly frame?: ConnectorFrame | UnknownFrame;
  /** Why `decodeConnectorFrame` refused the line. */
  readonly error?: Error;
}

/** Most characters of a line quoted in a failure message. */
const QUOTE_LIMIT = 200;

/**
 * One gateway-side connection to a live connector: it writes frames as the gateway does (Python
 * `json.dumps` bytes plus `\n`) and records every line the connector sends, decoded with the real codec.
 */
export class GatewayProbe {
  /** Every line received so far, in order. */
  readonly lines: ReceivedLine[] = [];
  readonly #socket: LiveWebSocket;
  readonly #waiters = new Set<() => void>();
  #partial = '';
  #largestMessageBytes = 0;

  private constructor(socket: LiveWebSocket) {
    this.#socket = socket;
    socket.onMessage((message) => this.#receive(message));
    void socket.closed.then(() => this.#wake());
  }

  /**
   * Dials `url` with the given upgrade headers.
   *
   * @throws {ConformanceError} `live_connection_failed`: when the upgrade is refused or does not complete
   *   within `timeoutMs`.
   */
  static async open(
    url: string,
    headers: Readonly<Record<string, string>>,
    timeoutMs: number,
  ): Promise<GatewayProbe> {
    return new GatewayProbe(await LiveWebSocket.connect(url, { headers, timeoutMs }));
  }

  /** Stops answering the connector's pings, as a hung gateway would. */
  ignorePings(): void {
    this.#socket.ignorePings();
  }

  /** Stops reading the connection, as a gateway whose reader stalls (see {@link LiveWebSocket.pause}). */
  pause(): void {
    this.#socket.pause();
  }

  /** Reads the connection again after {@link pause}. */
  resume(): void {
    this.#socket.resume();
  }

  /** Resolves once the connection ended. */
  get closed(): Promise<WebSocketClose> {
    return this.#socket.closed;
  }

  /** Whether the connection is still open. */
  get open(): boolean {
    return this.#socket.open;
  }

  /** The UTF-8 size of the largest WebSocket message received so far, in bytes. */
  get largestMessageBytes(): number {
    return this.#largestMessageBytes;
  }

  /** What the connector sent after its last newline: a frame without one is never processed. */
  get unterminated(): string {
    return this.#partial;
  }

  /** Writes one frame, as the gateway writes it. */
  send(frame: GatewayFrameInput): void {
    this.#socket.send(encodeFrame(frame, { style: 'python' }));
  }

  /**
   * Writes `text` as one WebSocket message, byte for byte: several frames at once, part of a frame, or a
   * line the gateway's encoder would not write.
   */
  sendText(text: string): void {
    this.#socket.send(text);
  }

  /**
   * Resolves with the first line from index `from` on that `matches` accepts, or `undefined` when the
   * connection ends or `timeoutMs` passes first.
   */
  async next(
    matches: (line: ReceivedLine) => boolean,
    timeoutMs: number,
    from = 0,
  ): Promise<ReceivedLine | undefined> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.lines.slice(from).find(matches);
      if (found !== undefined) return found;
      const left = deadline - Date.now();
      if (left <= 0 || !this.open) return undefined;
      await this.#waitForChange(left);
    }
  }

  /** Waits for the connection to end; resolves `undefined` when it is still open after `timeoutMs`. */
  async waitClosed(timeoutMs: number): Promise<WebSocketClose | undefined> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), timeoutMs);
    });
    try {
      return await Promise.race([this.#socket.closed, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Waits `ms` and returns the lines received meanwhile. */
  async collect(ms: number): Promise<readonly ReceivedLine[]> {
    const from = this.lines.length;
    await new Promise((resolve) => setTimeout(resolve, ms));
    return this.lines.slice(from);
  }

  /** Closes the connection (normal closure) and waits briefly for the connector to finish the handshake. */
  async close(): Promise<void> {
    await this.#socket.close(1000, '', 500);
  }

  #receive(message: string): void {
    this.#largestMessageBytes = Math.max(this.#largestMessageBytes, Buffer.byteLength(message));
    const parts = (this.#partial + message).split('\n');
    this.#partial = parts.pop() ?? '';
    for (const raw of parts) {
      if (raw.trim() === '') continue;
      this.lines.push(decodeLine(raw));
    }
    this.#wake();
  }

  #wake(): void {
    for (const wake of [...this.#waiters]) wake();
  }

  #waitForChange(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.#waiters.add(done);
    });
  }
}

function decodeLine(raw: string): ReceivedLine {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    json = undefined;
  }
  try {
    return { raw, json, frame: decodeConnectorFrame(raw) };
  } catch (error) {
    return { raw, json, error: error instanceof Error ? error : new Error(String(error)) };
  }
}

/** The `type` a line claims, whether or not it decoded. */
export function lineType(line: ReceivedLine): unknown {
  const json = line.json as { readonly type?: unknown } | null | undefined;
  return typeof json === 'object' && json !== null ? json.type : undefined;
}

/** A line shortened for a failure message. */
export function quoteLine(line: ReceivedLine): string {
  return line.raw.length > QUOTE_LIMIT ? `${line.raw.slice(0, QUOTE_LIMIT)}…` : line.raw;
}

/** Opens a probe, turning a refused upgrade into a case failure that says so. */
export async function openOrFail(
  url: string,
  headers: Readonly<Record<string, string>>,
  timeoutMs: number,
  what: string,
): Promise<GatewayProbe> {
  try {
    return await GatewayProbe.open(url, headers, timeoutMs);
  } catch (error) {
    if (isConformanceError(error, 'live_connection_failed')) fail(`${what}: ${error.message}`, error);
    throw error;
  }
}
