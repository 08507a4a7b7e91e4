import { join } from 'node:path';
import { PROJECT_ROOT } from '../../src-main/app/paths.js';

/** Runs the CLI from source, as a spawned agent launcher would. */
export const CLI_SOURCE_FOR_TESTS = ['--import', 'tsx', join(PROJECT_ROOT, 'src-main', 'app', 'cli.ts')];
