// Runs every benchmark in one process so the ratios compare implementations measured side by side.
// `pnpm bench` (builds first) — prints markdown tables and a summary of the goals.
import { loadavg } from 'node:os';
import { benchBlobTransfer } from './blob-transfer.js';
import { benchCanonicalJson } from './canonical-json.js';
import { keepAlive } from './harness.js';
import { benchHearthNetEvents } from './hearthnet-events.js';
import { benchStrictJson } from './hearthnet-strict-json.js';
import { benchHearthNetWire } from './hearthnet-wire.js';
import { benchRelayFrames } from './relay-frames.js';
import { benchRelayRuntime } from './relay-runtime.js';
import { benchRelayScaleOut } from './relay-scale-out.js';
import { benchSigning } from './signing.js';

const quick = process.argv.includes('--quick');
const options = quick ? { samples: 3, sampleMs: 100, warmupMs: 50 } : {};

const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' / ');
console.log(
  `# agentwire benchmarks — node ${process.version}, ${new Date().toISOString()}, load average ${load()}`,
);
const goals = [
  ...benchCanonicalJson(options),
  ...benchSigning(options),
  ...benchStrictJson(options),
  ...benchRelayFrames(options),
  ...(await benchRelayRuntime({ quick })),
  ...(await benchRelayScaleOut({ quick })),
  ...(await benchHearthNetWire({ quick })),
  ...(await benchHearthNetEvents({ quick })),
  ...(await benchBlobTransfer({ quick })),
];
console.log(`\n### Goals (load average at the end: ${load()})\n`);
for (const g of goals) console.log(`- ${g}`);
if (keepAlive() === Symbol.for('never')) console.log('');
