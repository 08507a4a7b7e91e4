/**
 * Recovery evidence, format 1, exactly as it is stored. Immutable once shipped: a change in meaning
 * needs a new format version and its own module; optional fields older readers may ignore are the only
 * additions allowed here. Enum values are explicit and never renumbered or reused.
 */
import { z } from 'zod';

export const FORMAT_VERSION_V1 = 1 as const;

export enum ManifestStateV1 {
  Prepared = 1,
  Applying = 2,
  Completed = 3,
  RolledBack = 4,
}

export enum FileStateV1 {
  Pending = 1,
  BackedUp = 2,
  Applied = 3,
  Restored = 4,
}

export enum FileOperationV1 {
  Write = 1,
  Delete = 2,
}

const sha256 = z.string().regex(/^[0-9a-f]{64}$/);
const relativePath = z.string().min(1);

export const FileEntryV1 = z.object({
  path: relativePath,
  operation: z.enum(FileOperationV1),
  beforeSha256: sha256.nullable(),
  afterSha256: sha256.nullable(),
  backupPath: relativePath.nullable(),
  tempPath: relativePath.nullable(),
  state: z.enum(FileStateV1),
});
export type FileEntryV1 = z.infer<typeof FileEntryV1>;

export const ManifestV1 = z.object({
  formatVersion: z.literal(FORMAT_VERSION_V1),
  manifestId: z.string().min(1),
  transactionId: z.string().min(1),
  workspaceRoot: z.string().min(1),
  createdAt: z.number().int().nonnegative(),
  state: z.enum(ManifestStateV1),
  files: z.array(FileEntryV1),
});
export type ManifestV1 = z.infer<typeof ManifestV1>;

export const OwnerRecordV1 = z.object({
  formatVersion: z.literal(FORMAT_VERSION_V1),
  instanceId: z.string().min(1),
  pid: z.number().int().positive(),
  startedAt: z.number().int().nonnegative(),
});
export type OwnerRecordV1 = z.infer<typeof OwnerRecordV1>;

/** One line of `<manifestId>.progress` (JSON lines, appended while a commit runs). */
export const ProgressLineV1 = z.object({
  file: z.number().int().nonnegative(),
  state: z.enum(FileStateV1),
});
export type ProgressLineV1 = z.infer<typeof ProgressLineV1>;
