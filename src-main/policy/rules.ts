/**
 * The approval policy document (the file named by `approval-policy`) and its validation. Every problem
 * names the rule index and field, so an operator can fix the file without guessing. Pure: no I/O.
 */
import { z } from 'zod';
import { JunctionError } from '../contracts/index.js';
import type { PolicyArgumentMatcher, PolicyDocument, PolicyRule } from '../contracts/index.js';
import { isVisibilityAction } from './engine.js';
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

const rule = z
  .strictObject({
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
    action: z.enum(['allow', 'ask', 'deny', 'hide', 'show']),
    reason: z.string().max(1000).optional(),
  })
  .superRefine((r, ctx) => {
    if (isVisibilityAction(r.action) && r.arguments !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['arguments'], message: `a ${r.action} rule cannot match arguments: visibility is decided when a catalogue is listed, before any call exists` });
    }
  });

/** The fields that narrow a rule; a rule with none of them matches every tool (or every call). */
const NARROWING = ['tool', 'source', 'plugin', 'project', 'role', 'agent', 'annotations', 'arguments'] as const;

/** Every tool has a name and every listing an agent, so `*` there narrows nothing. */
function narrows(r: z.infer<typeof rule>, field: (typeof NARROWING)[number]): boolean {
  const value = r[field];
  return value !== undefined && !((field === 'tool' || field === 'agent') && value === '*');
}

const documentSchema = z.strictObject({ rules: z.array(rule).max(1000) }).superRefine((document, ctx) => {
  // The first visibility rule without matchers decides every listing no earlier one did: a hide there,
  // with no show before it, would leave every agent an empty catalogue.
  const visibility = document.rules.map((r, index) => ({ r, index })).filter(({ r }) => isVisibilityAction(r.action));
  const catchAll = visibility.find(({ r }) => !NARROWING.some((field) => narrows(r, field)));
  if (catchAll && catchAll.r.action === 'hide' && !visibility.some(({ r, index }) => r.action === 'show' && index < catchAll.index)) {
    ctx.addIssue({
      code: 'custom',
      path: ['rules', catchAll.index, 'action'],
      message: 'this hide rule hides every tool from every agent; narrow it (tool, agent, project, ...) or put the show rules for what agents may see before it',
    });
  }
});

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
