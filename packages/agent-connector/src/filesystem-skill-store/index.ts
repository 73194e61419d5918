/**
 * `@agentwire/agent-connector/filesystem-skill-store` — a SkillStore over a folder of `*.skill.md`
 * files with JSON-lines version logs. Node only.
 *
 * @example
 * ```ts
 * import { FilesystemSkillStore } from '@agentwire/agent-connector/filesystem-skill-store';
 *
 * const store = new FilesystemSkillStore({ dir: './skills' });
 * await store.store('triage', '# Skill: triage\n# Status: Draft\n');
 * const catalogVersion = await store.version();
 * ```
 *
 * @packageDocumentation
 */
export { FilesystemSkillStore, type FilesystemSkillStoreOptions } from './filesystem-skill-store.js';
