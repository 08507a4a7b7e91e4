/** The control API's shapes as the renderer sees them (type-only; nothing from the main process is bundled). */
export type * from '../../../src-main/contracts/index.js';
export type { StructuredError as StructuredErrorLike } from '../../../src-main/contracts/errors.js';
