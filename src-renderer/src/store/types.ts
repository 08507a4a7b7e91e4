/** The control API's shapes as the renderer sees them (type-only; nothing from the main process is bundled). */
export type * from '../../../src-main/control/api.js';
export type { StructuredError as StructuredErrorLike } from '../../../src-main/shared/errors.js';
