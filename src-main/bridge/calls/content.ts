/** Plugin content blocks as MCP content blocks; a block MCP cannot carry becomes a text block, never lost. */
import { ContentBlockSchema as McpContentBlockSchema, type ContentBlock as McpContentBlock } from '@modelcontextprotocol/sdk/types.js';
import type { ContentBlock } from '../../../plugins/sdk/wire/index.js';

/**
 * MCP gives image, audio and embedded resources a `mimeType` but text blocks none; McpPlugin marks a
 * text block that mirrors structured content `application/json`, so a text block keeps its type in `_meta`.
 */
function keepMimeType(block: McpContentBlock, mimeType: unknown): McpContentBlock {
  if (typeof mimeType !== 'string' || 'mimeType' in block || block.type !== 'text') return block;
  return { ...block, _meta: { ...block._meta, mimeType } };
}

/** Any block, through MCP's own schema. */
export function checkedContentBlock(block: ContentBlock): McpContentBlock {
  // .NET peers may write unset optionals as null, which MCP's schemas reject; drop them before checking.
  const cleaned = Object.fromEntries(Object.entries(block).filter(([, v]) => v !== null && v !== undefined));
  const parsed = McpContentBlockSchema.safeParse(cleaned);
  return parsed.success ? keepMimeType(parsed.data, cleaned['mimeType']) : { type: 'text', text: JSON.stringify(block) };
}

const PLAIN_TEXT_FIELDS = new Set(['type', 'text', 'mimeType']);

/**
 * The block nearly every tool answers with, a text block with at most a `mimeType` besides (other fields
 * null or absent), as `checkedContentBlock` would yield it, without the schema's union parse on every
 * call; undefined for any other block. test/unit/bridge/calls/content.test.ts holds the two to agreement.
 */
export function plainTextBlock(block: ContentBlock): McpContentBlock | undefined {
  const text = block['text'];
  if (block.type !== 'text' || typeof text !== 'string') return undefined;
  for (const key in block) {
    const value = block[key];
    if (!PLAIN_TEXT_FIELDS.has(key) && value !== null && value !== undefined) return undefined;
  }
  return keepMimeType({ type: 'text', text }, block['mimeType']);
}

export function toMcpContent(blocks: readonly ContentBlock[]): McpContentBlock[] {
  return blocks.map((block) => plainTextBlock(block) ?? checkedContentBlock(block));
}
