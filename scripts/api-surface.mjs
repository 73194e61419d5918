// The public surface of every package, measured and recorded.
//
//   node scripts/api-surface.mjs metrics   print the surface figures and the 1.0 targets
//   node scripts/api-surface.mjs check     fail when a package's API report or the figures recorded in
//                                          docs/architecture.md differ from the built packages
//   node scripts/api-surface.mjs write     rewrite packages/*/api-report.md and that docs block
//
// The API report of a package lists, per `exports` entry, every exported name with its declaration
// as the published `.d.ts` states it (doc comments removed), so a change of the public surface shows
// up as a diff of `api-report.md` in review, and CI fails when the two disagree. It reads `dist/`,
// so run it after `pnpm build`. Source figures (files, barrels, lines, error classes) come from
// `packages/*/src`, tests excluded.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { isPublished, packageEntries, packageName } from './package-entries.mjs';

const root = resolve(import.meta.dirname, '..');
const packagesDir = join(root, 'packages');
const architectureDoc = join(root, 'docs/architecture.md');
const blocks = {
  surface: ['<!-- api-surface:start (node scripts/api-surface.mjs write) -->', '<!-- api-surface:end -->'],
  source: [
    '<!-- source-figures:start (node scripts/api-surface.mjs write) -->',
    '<!-- source-figures:end -->',
  ],
};

/** The targets of the 1.0 surface (issue "The 1.0 surface"); `max` figures, all inclusive. */
const targets = {
  exportedNames: 700,
  relayRootNames: 150,
  errorClasses: 40,
  sourceFiles: 350,
  barrels: 30,
};

const packageDirs = readdirSync(packagesDir)
  .map((d) => join(packagesDir, d))
  .filter((d) => existsSync(join(d, 'package.json')))
  .sort();

function walk(dir, keep) {
  const out = [];
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (name === 'node_modules' || name === 'dist') continue;
    if (statSync(p).isDirectory()) out.push(...walk(p, keep));
    else if (keep(p)) out.push(p);
  }
  return out;
}

const isSource = (p) => p.endsWith('.ts') && !p.endsWith('.test.ts') && !p.endsWith('.d.ts');

// ---------------------------------------------------------------------------------------------
// Exported names, read from the built declarations.

function surface() {
  const entries = [];
  for (const dir of packageDirs.filter(isPublished)) {
    const pkg = packageName(dir);
    for (const entry of packageEntries(dir)) {
      const dts = join(dir, 'dist', `${entry.name}.d.ts`);
      if (!existsSync(dts)) throw new Error(`${relative(root, dts)} is missing: run \`pnpm build\` first`);
      entries.push({
        pkg,
        dir,
        specifier: entry.subpath === '.' ? pkg : `${pkg}${entry.subpath.slice(1)}`,
        dts,
      });
    }
  }
  const program = ts.createProgram(
    entries.map((e) => e.dts),
    {
      noEmit: true,
      skipLibCheck: true,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      types: [],
    },
  );
  const checker = program.getTypeChecker();
  const printer = ts.createPrinter({ removeComments: true, newLine: ts.NewLineKind.LineFeed });
  for (const entry of entries) {
    const file = program.getSourceFile(entry.dts);
    const moduleSymbol = file && checker.getSymbolAtLocation(file);
    entry.names = [];
    if (!moduleSymbol) continue;
    for (const exported of checker.getExportsOfModule(moduleSymbol)) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const declarations = (symbol.declarations ?? []).map((d) => printDeclaration(printer, d));
      entry.names.push({
        name: exported.name,
        declarations,
        documented: symbol.getDocumentationComment(checker).length > 0 || hasJsDoc(symbol),
        errorClass: isErrorClass(checker, symbol),
      });
    }
    entry.names.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }
  reachedDeclarations(program, checker, printer, entries);
  return entries;
}

const byName = (a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** A declaration at the top level of its `.d.ts` (not a member, parameter or local). */
function isTopLevel(declaration) {
  const node = ts.isVariableDeclaration(declaration) ? declaration.parent.parent : declaration;
  return ts.isSourceFile(node.parent);
}

/**
 * Per package, the declarations its exports mention that it does not export itself (an options
 * type's nested part, the functions a kit object holds, a verdict variant): they are part of what a
 * caller sees, so the report records them too and a change to one shows up as a diff.
 */
function reachedDeclarations(program, checker, printer, entries) {
  const packages = new Map();
  for (const entry of entries) {
    if (!packages.has(entry.dir)) packages.set(entry.dir, []);
    packages.get(entry.dir).push(entry);
  }
  for (const [dir, list] of packages) {
    const dist = `${join(dir, 'dist')}/`;
    const exported = new Set();
    const queue = [];
    for (const entry of list) {
      const file = program.getSourceFile(entry.dts);
      const moduleSymbol = file && checker.getSymbolAtLocation(file);
      if (!moduleSymbol) continue;
      for (const e of checker.getExportsOfModule(moduleSymbol)) {
        const symbol = e.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(e) : e;
        exported.add(symbol);
        queue.push(symbol);
      }
    }
    const reached = new Map();
    const seen = new Set(queue);
    while (queue.length > 0) {
      const symbol = queue.pop();
      for (const declaration of symbol.declarations ?? []) {
        const node = ts.isVariableDeclaration(declaration) ? declaration.parent.parent : declaration;
        const visit = (child) => {
          if (ts.isIdentifier(child)) {
            let target = checker.getSymbolAtLocation(child);
            if (target && target.flags & ts.SymbolFlags.Alias) target = checker.getAliasedSymbol(target);
            const local = target?.declarations?.find(
              (d) => d.getSourceFile().fileName.startsWith(dist) && isTopLevel(d),
            );
            if (target && local && !seen.has(target)) {
              seen.add(target);
              queue.push(target);
              if (!exported.has(target)) reached.set(target, target);
            }
          }
          ts.forEachChild(child, visit);
        };
        ts.forEachChild(node, visit);
      }
    }
    const names = [...reached.values()]
      .map((symbol) => ({
        name: symbol.name,
        declarations: (symbol.declarations ?? []).filter(isTopLevel).map((d) => printDeclaration(printer, d)),
      }))
      .sort(byName);
    for (const entry of list) entry.reached = names;
  }
}

function hasJsDoc(symbol) {
  return (symbol.declarations ?? []).some((d) => {
    const node = ts.isVariableDeclaration(d) ? d.parent.parent : d;
    return ts.getJSDocCommentsAndTags(node).length > 0;
  });
}

function isErrorClass(checker, symbol) {
  if (!(symbol.flags & ts.SymbolFlags.Class)) return false;
  const seen = new Set();
  const visit = (type) => {
    if (!type || seen.has(type)) return false;
    seen.add(type);
    if (type.symbol?.name === 'Error') return true;
    return (checker.getBaseTypes(type) ?? []).some(visit);
  };
  return visit(checker.getDeclaredTypeOfSymbol(symbol));
}

function printDeclaration(printer, declaration) {
  const node = ts.isVariableDeclaration(declaration) ? declaration.parent.parent : declaration;
  const text = printer.printNode(ts.EmitHint.Unspecified, node, node.getSourceFile());
  // Chunk-local aliases (`a as RelayError`) are build artefacts, not surface.
  return text.replace(/^export /, '').replace(/^declare /, '');
}

// ---------------------------------------------------------------------------------------------
// Source figures.

function sourceFigures() {
  const files = packageDirs.flatMap((dir) => walk(join(dir, 'src'), isSource));
  let lines = 0;
  let barrels = 0;
  const smallFiles = [];
  const classes = new Map(); // name -> base names
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const count = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    lines += count;
    if (count < 30) smallFiles.push(file);
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, false, ts.ScriptKind.TS);
    const statements = sf.statements;
    if (statements.length > 0 && statements.every((s) => ts.isExportDeclaration(s) && s.moduleSpecifier))
      barrels += 1;
    const visit = (node) => {
      if (ts.isClassDeclaration(node) && node.name) {
        const heritage = node.heritageClauses?.find((h) => h.token === ts.SyntaxKind.ExtendsKeyword);
        const base = heritage?.types[0]?.expression.getText(sf);
        classes.set(`${relative(root, file)}#${node.name.text}`, { name: node.name.text, base });
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  // A class is an error class when its `extends` chain reaches `Error` (by name, within the repo).
  const byName = new Map();
  for (const c of classes.values()) byName.set(c.name, c);
  const reachesError = (c, depth = 0) =>
    c.base === 'Error' || (depth < 20 && byName.has(c.base) && reachesError(byName.get(c.base), depth + 1));
  const errorClasses = [...classes.entries()].filter(([, c]) => reachesError(c)).map(([id]) => id);
  return { files: files.length, lines, barrels, smallFiles: smallFiles.length, errorClasses };
}

// ---------------------------------------------------------------------------------------------
// Output.

function figures() {
  const entries = surface();
  const source = sourceFigures();
  const exportedNames = entries.reduce((n, e) => n + e.names.length, 0);
  const undocumented = entries.flatMap((e) =>
    e.names.filter((n) => !n.documented).map((n) => `${e.specifier}:${n.name}`),
  );
  const relayRoot = entries.find((e) => e.specifier === '@agentwire/relay')?.names.length ?? 0;
  return { entries, source, exportedNames, relayRoot, undocumented };
}

const row = (label, value, target) =>
  `| ${label} | ${value} | ${target === undefined ? '' : `≤ ${target} ${value <= target ? '✓' : '✗'}`} |`;

/** The public surface: changes only when an export does, so `check` holds docs/architecture.md to it. */
function surfaceMarkdown(f) {
  return [
    '| figure | now | 1.0 target |',
    '|---|---:|---|',
    row('exported names, all entries', f.exportedNames, targets.exportedNames),
    row('exported names, `@agentwire/relay` root', f.relayRoot, targets.relayRootNames),
    row('exported names without a doc comment', f.undocumented.length, 0),
    row(
      'error classes (all of `packages/*/src`, exported or not)',
      f.source.errorClasses.length,
      targets.errorClasses,
    ),
    '',
    '| entry | exported names |',
    '|---|---:|',
    ...f.entries.map((e) => `| \`${e.specifier}\` | ${e.names.length} |`),
  ].join('\n');
}

/** The shape of the sources: a snapshot `write` records and `check` does not hold (every edit moves it). */
function sourceMarkdown(f) {
  return [
    '| figure | now | 1.0 target |',
    '|---|---:|---|',
    row('source files (tests excluded)', f.source.files, targets.sourceFiles),
    row('barrels (files that only re-export)', f.source.barrels, targets.barrels),
    row('source files under 30 lines', f.source.smallFiles),
    row('source lines (tests excluded)', f.source.lines),
  ].join('\n');
}

const metricsMarkdown = (f) => `${surfaceMarkdown(f)}\n\n${sourceMarkdown(f)}`;

function reportFor(pkg, entries) {
  const out = [
    `# API report: ${pkg}`,
    '',
    '<!-- Generated by `node scripts/api-surface.mjs write` from the built `.d.ts` files; do not edit. -->',
    '<!-- `pnpm test` fails when this file and the built package disagree. -->',
    '',
  ];
  const printed = new Map();
  for (const entry of entries) {
    out.push(`## \`${entry.specifier}\` (${entry.names.length} names)`, '');
    for (const n of entry.names) {
      const body = n.declarations.join('\n');
      const key = `${n.name}\n${body}`;
      if (printed.has(key)) {
        out.push(`- \`${n.name}\`: as in \`${printed.get(key)}\``, '');
        continue;
      }
      printed.set(key, entry.specifier);
      out.push(`### \`${n.name}\`${n.documented ? '' : ' (undocumented)'}`, '', '```ts', body, '```', '');
    }
    out.push('');
  }
  const reached = entries[0]?.reached ?? [];
  if (reached.length > 0) {
    out.push(
      `## Not exported, reached from the exports (${reached.length})`,
      '',
      'Types and values the declarations above mention that no entry exports: a caller meets them (an',
      "option's nested part, a kit's functions) without naming them.",
      '',
    );
    for (const n of reached) out.push(`### \`${n.name}\``, '', '```ts', n.declarations.join('\n'), '```', '');
  }
  return `${out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}

function reports(entries) {
  const byPackage = new Map();
  for (const e of entries) {
    if (!byPackage.has(e.dir)) byPackage.set(e.dir, { pkg: e.pkg, entries: [] });
    byPackage.get(e.dir).entries.push(e);
  }
  return [...byPackage].map(([dir, { pkg, entries: list }]) => ({
    file: join(dir, 'api-report.md'),
    text: reportFor(pkg, list),
  }));
}

function replaceBlock(doc, [start, end], body) {
  const from = doc.indexOf(start);
  const to = doc.indexOf(end);
  if (from < 0 || to < from) throw new Error(`docs/architecture.md lacks the markers ${start} … ${end}`);
  return `${doc.slice(0, from + start.length)}\n${body}\n${doc.slice(to)}`;
}

/** docs/architecture.md with the surface block current; with `all`, the source snapshot too. */
function docsWithFigures(f, all) {
  const doc = replaceBlock(readFileSync(architectureDoc, 'utf8'), blocks.surface, surfaceMarkdown(f));
  return all ? replaceBlock(doc, blocks.source, sourceMarkdown(f)) : doc;
}

/** Markdown with table rows compared by content only (the formatter pads the cells). */
function tables(markdown) {
  return markdown
    .split('\n')
    .map((line) => (line.startsWith('|') ? line.replace(/\s*\|\s*/g, '|').replace(/-{2,}/g, '---') : line))
    .join('\n');
}

const command = process.argv[2] ?? 'metrics';
const f = figures();
if (command === 'metrics') {
  console.log(metricsMarkdown(f));
  if (process.argv.includes('--list')) {
    console.log('\nerror classes:');
    for (const c of f.source.errorClasses) console.log(`  ${c}`);
    console.log('\nundocumented exports:');
    for (const u of f.undocumented) console.log(`  ${u}`);
  }
} else if (command === 'write') {
  for (const r of reports(f.entries)) writeFileSync(r.file, r.text);
  writeFileSync(architectureDoc, docsWithFigures(f, true));
  // Biome formats Markdown (it aligns table columns); write what the lint step expects.
  execFileSync('pnpm', ['exec', 'biome', 'format', '--write', architectureDoc], {
    cwd: root,
    stdio: 'ignore',
  });
  console.log(metricsMarkdown(f));
} else if (command === 'check') {
  const stale = reports(f.entries).filter(
    (r) => !existsSync(r.file) || readFileSync(r.file, 'utf8') !== r.text,
  );
  if (tables(readFileSync(architectureDoc, 'utf8')) !== tables(docsWithFigures(f, false))) {
    stale.push({ file: architectureDoc });
  }
  if (stale.length > 0) {
    console.error('The public surface changed, but its record did not:');
    for (const r of stale) console.error(`  ${relative(root, r.file)}`);
    console.error('Review the change, then run `node scripts/api-surface.mjs write` and commit the result.');
    process.exit(1);
  }
  console.log(
    `api-surface: ${f.entries.length} entries, ${f.exportedNames} exported names — reports up to date`,
  );
} else {
  console.error(`unknown command ${command}; use metrics, check or write`);
  process.exit(2);
}
