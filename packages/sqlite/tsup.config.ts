import { defineConfig } from 'tsup';
import { libraryConfig } from '../../scripts/tsup-config.mjs';

export default defineConfig(libraryConfig(import.meta.dirname));
