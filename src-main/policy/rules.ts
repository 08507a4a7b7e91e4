/**
 * The approval policy document (the file named by `approval-policy`) and its validation. Every problem
 * names the rule index and field, so an operator can fix the file without guessing. Pure: no I/O.
 */
import { z } from 'zod';
import { JunctionError } from '../contracts/index.js';
import type { PolicyArgumentMatcher, PolicyDocument, PolicyRule } from '../contracts/index.js';
import { MATCHER_KIND_NAMES, operandSchemas } from './matchers.js';

const glob = z.string().min(1).max(256);

const pointer = z
  .string()
  .max(1024)
  .refine((p) => p === '' || p.startsWith('/'), 'must be a JSON pointer: empty or starting with "/"')
  .refine((p) => !/~[^01]|~$/.test(p), 'has "~" not followed by 0 or 1');

const operands = operandSchemas();
const matcher = z
  .strictObject({ pointer, ...Object.fromEntries(MATCHER_KIND_NAMES.map((k) => [k, operands[k].optional()])) })
  .superRefine((m, ctx) => {
    const given = MATCHER_KIND_NAMES.filter((k) => (m as Record<string, unknown>)[k] !== undefined);
    if (given.length !== 1) ctx.addIssue({ code: 'custom', message: `needs exactly one of ${MATCHER_KIND_NAMES.join(', ')}` });
  });

const rule = z.strictObject({
  tool: glob.optional(),
  source: z.enum(['host', 'plugin', 'bridge']).optional(),
  plugin: glob.optional(),
  project: glob.optional(),
  role: z.enum(['editor', 'runtime']).optional(),
  agent: glob.optional(),
  annotations: z
    .strictObject({
      destructiveHint: z.boolean().optional(),
      readOnlyHint: z.boolean().optional(),
      openWorldHint: z.boolean().optional(),
      idempotentHint: z.boolean().optional(),
    })
    .optional(),
  arguments: z.array(matcher).max(32).optional(),
  action: z.enum(['allow', 'ask', 'deny']),
  reason: z.string().max(1000).optional(),
});

const documentSchema = z.strictObject({ rules: z.array(rule).max(1000) });

export const MAX_POLICY_BYTES = 1_048_576;

function describeIssue(issue: z.core.$ZodIssue): { ruleIndex: number | null; field: string; message: string } {
  const path = issue.path.map(String);
  const ruleIndex = path[0] === 'rules' && path[1] !== undefined && /^\d+$/.test(path[1]) ? Number(path[1]) : null;
  const unknownKeys = issue.code === 'unrecognized_keys' ? issue.keys : [];
  const field = [...path, ...unknownKeys.slice(0, 1)].join('.') || '(root)';
  const message = issue.code === 'unrecognized_keys' ? `unknown field${unknownKeys.length > 1 ? 's' : ''} ${unknownKeys.map((k) => `"${k}"`).join(', ')}` : issue.message;
  return { ruleIndex, field, message };
}

/** Validates a parsed policy document; `PolicyInvalid` names the first problem's rule index and field, and lists them all in details. */
export function parsePolicyDocument(value: unknown, origin: string): PolicyDocument {
  const parsed = documentSchema.safeParse(value);
  if (parsed.success) return parsed.data as PolicyDocument;
  const problems = parsed.error.issues.map(describeIssue);
  const first = problems[0]!;
  const where = first.ruleIndex === null ? first.field : `rule ${first.ruleIndex}, field ${first.field}`;
  throw new JunctionError('PolicyInvalid', `${origin}: ${where}: ${first.message}${problems.length > 1 ? ` (and ${problems.length - 1} more problem(s))` : ''}`, {
    details: { problems },
  });
}

/** Parses policy text (file content or the console's editor); malformed JSON is a `PolicyInvalid` with its position. */
export function parsePolicyText(text: string, origin: string): PolicyDocument {
  if (Buffer.byteLength(text, 'utf8') > MAX_POLICY_BYTES) throw new JunctionError('PolicyInvalid', `${origin}: the policy is larger than ${MAX_POLICY_BYTES} bytes.`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new JunctionError('PolicyInvalid', `${origin}: not valid JSON: ${(error as Error).message}`);
  }
  return parsePolicyDocument(value, origin);
}

/** The policy as written back to disk: stable two-space JSON with a trailing newline. */
export function formatPolicy(document: PolicyDocument): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}

export type { PolicyArgumentMatcher, PolicyDocument, PolicyRule };
