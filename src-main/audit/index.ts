/** The audit room's public door: the durable trail, its export, and the redaction every record passes. */
export { AuditStore, type AuditStoreOptions } from './store.js';
export { describeDbError } from './database.js';
export { exportAudit, parseInstant, type ExportFormat, type ExportOptions } from './export.js';
export { compileRedaction, redactCall, redactCallJson, redactValue, DEFAULT_REDACTION, REDACTED, type RedactionRules } from './redact.js';
export type * from './records.js';
export { AuditTrail, auditDbPath, type AuditTrailOptions } from './trail.js';
export { mountAudit, type AuditMountContext, type MountedAudit } from './mount.js';
