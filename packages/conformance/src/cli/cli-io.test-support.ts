import { assertEqual } from '../assert.js';
import type { ConformanceSuite } from '../suite.js';
import type { CliIo } from './run-cli.js';

/** A {@link CliIo} that keeps what the CLI writes, reads files from `readable`, and takes plain progress. */
export function memoryIo(readable: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const progress: string[] = [];
  const files = new Map<string, string>();
  const io: CliIo = {
    stdout: (text) => void out.push(text),
    stderr: (text) => void err.push(text),
    writeFile: async (path, text) => void files.set(path, text),
    readFile: async (path) => {
      const text = readable[path];
      if (text === undefined) throw new Error(`ENOENT: ${path}`);
      return text;
    },
    progress: { write: (text) => void progress.push(text), isTTY: false, colour: false },
  };
  return { io, out, err, files, progress };
}

/** A suite of one case that passes or fails as told. */
export function oneCaseSuite(name: string, passes: boolean): ConformanceSuite<unknown> {
  return {
    name,
    version: '1.0.0',
    description: name,
    cases: [
      {
        id: `${name}.only`,
        title: 'only',
        section: '§1',
        level: 'required',
        since: '1.0.0',
        run: () => assertEqual(passes, true),
      },
    ],
    setup: () => ({ ctx: null }),
  };
}
