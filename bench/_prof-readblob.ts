import { keyPairFromSeed } from '@agentwire/hearthnet';
import { InMemoryBlobStore, readBlob, registerFileCapabilities } from '@agentwire/hearthnet/blobs';
import { CapabilityRegistry } from '@agentwire/hearthnet/capabilities';
import { serveBusHandler } from '@agentwire/hearthnet/node-http';
import { type CapabilityHandler, createBusHandler, createHearthNetClient, staticTrust } from '@agentwire/hearthnet/wire';
const serverKeys = keyPairFromSeed(Uint8Array.from({ length: 32 }, (_, i) => (i * 3 + 2) & 0xff));
const callerKeys = keyPairFromSeed(Uint8Array.from({ length: 32 }, (_, i) => (i * 13 + 5) & 0xff));
const community = serverKeys.nodeId;
const store = new InMemoryBlobStore();
const registry = new CapabilityRegistry<CapabilityHandler>({});
registerFileCapabilities(registry, { store });
const bus = createBusHandler({ identity: serverKeys, registry, community, trust: staticTrust({ [callerKeys.nodeId]: 'trusted' }) });
const served = await serveBusHandler(bus);

const url = served.url;
const client = createHearthNetClient({ identity: callerKeys, community, node: url, peer: serverKeys.nodeId });
const bytes = new Uint8Array(8 * 1024 * 1024).map((_, i) => (i * 2654435761) >>> 24);
const manifest = await store.putBlob(bytes);
const rounds = Number(process.env.ROUNDS ?? 20);
const t0 = performance.now(); const c0 = process.cpuUsage();
for (let r = 0; r < rounds; r++) { const got = await readBlob(client, manifest.cid); if (got.bytes.length !== bytes.length) throw new Error('x'); }
const ms = performance.now() - t0; const cpu = process.cpuUsage(c0);
console.log(`${(rounds * 8.388608 / (ms / 1000)).toFixed(1)} MB/s, CPU ms/MB ${((cpu.user + cpu.system) / 1000 / (rounds * 8.388608)).toFixed(2)}`);
await (served as any).close?.();
process.exit(0);
