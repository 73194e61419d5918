// TypeDoc plugin (typedoc.json): the entry points are the `exports` entries of every package, read
// through scripts/package-entries.mjs like the build, the tests and the dependency check do; each
// entry's page is named by its import specifier (`@agentwire/hearthnet/wire`), and imports between
// packages resolve to their sources, so a type shared by two packages is documented once.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Application, Converter, ReflectionKind } from 'typedoc';
import { isPublished, packageEntries, packageName } from './package-entries.mjs';

const packagesDir = join(import.meta.dirname, '..', 'packages');

/** Every code entry of every package: its source file and the specifier it is imported by. */
function workspaceEntries() {
  return readdirSync(packagesDir).flatMap((dir) => {
    const packageDir = join(packagesDir, dir);
    if (!isPublished(packageDir)) return [];
    const name = packageName(packageDir);
    return packageEntries(packageDir).map((e) => ({
      source: e.source,
      specifier: e.subpath === '.' ? name : `${name}/${e.subpath.slice(2)}`,
    }));
  });
}

/** @param {import('typedoc').Application} app */
export function load(app) {
  const entries = workspaceEntries();
  const specifierOf = new Map(entries.map((e) => [e.source, e.specifier]));

  app.on(Application.EVENT_BOOTSTRAP_END, () => {
    app.options.setValue(
      'entryPoints',
      entries.map((e) => e.source),
    );
    app.options.setValue('compilerOptions', {
      paths: Object.fromEntries(entries.map((e) => [e.specifier, [e.source]])),
    });
  });

  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
    for (const module of context.project.getReflectionsByKind(ReflectionKind.Module)) {
      const file = context.getSymbolFromReflection(module)?.declarations?.[0]?.getSourceFile().fileName;
      const specifier = file && specifierOf.get(file);
      if (specifier) module.name = specifier;
    }
  });
}
