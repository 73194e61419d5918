// A hostile gateway, run as its own process so that its memory is not the server's:
// `node --import tsx flooding-gateway-process.ts <ws-url> <hello|outbound> <duration-ms>` with the bearer
// token in RELAY_TOKEN. It dials, says hello once, stops reading its socket and floods one kind of frame
// (1 MiB-sized messages of repeated `hello`s, or of `outbound` sends) for the duration, dialling again
// whenever the server drops it. Then it prints one JSON line `{ dials, messages, closes }` and exits.
import WebSocket from 'ws';

const [url, mode, durationText] = process.argv.slice(2);
const token = process.env['RELAY_TOKEN'];
if (url === undefined || (mode !== 'hello' && mode !== 'outbound') || token === undefined) {
  throw new Error('usage: RELAY_TOKEN=… flooding-gateway-process.ts <ws-url> <hello|outbound> <duration-ms>');
}
const deadline = Date.now() + Number(durationText);
const hello = `${JSON.stringify({ type: 'hello', platform: 'discord', botId: 'app1' })}\n`;
let n = 0;
function outboundLine(): string {
  n += 1;
  const requestId = n.toString(16).padStart(32, '0');
  return `${JSON.stringify({ type: 'outbound', requestId, action: { op: 'send', chat_id: 'c1', content: 'x' } })}\n`;
}
/** One message just under the server's 1 MiB limit. */
function message(): string {
  if (mode === 'hello') return hello.repeat(Math.floor(1_000_000 / hello.length));
  const lines: string[] = [];
  for (let size = 0; size < 1_000_000 - 200; ) {
    const line = outboundLine();
    lines.push(line);
    size += line.length;
  }
  return lines.join('');
}

let dials = 0;
let messages = 0;
const closes: string[] = [];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

while (Date.now() < deadline) {
  dials += 1;
  const ws = new WebSocket(url, { headers: { Authorization: `Bearer ${token}` } });
  ws.on('error', () => undefined);
  const closed = new Promise<void>((resolve) =>
    ws.once('close', (code, reason) => {
      closes.push(`${code} ${reason.toString('utf8')}`);
      resolve();
    }),
  );
  await new Promise<void>((resolve) => {
    ws.once('open', () => resolve());
    ws.once('close', () => resolve());
  });
  if (ws.readyState === WebSocket.OPEN) {
    ws.send(hello);
    ws.pause();
    while (ws.readyState === WebSocket.OPEN && Date.now() < deadline) {
      // Keep this process's own queue short; the server decides how much it reads.
      if (ws.bufferedAmount < 8 * 1024 * 1024) {
        ws.send(message());
        messages += 1;
      }
      await sleep(10);
    }
    ws.terminate();
  }
  await closed;
  await sleep(100);
}
process.stdout.write(`${JSON.stringify({ dials, messages, closes })}\n`);
