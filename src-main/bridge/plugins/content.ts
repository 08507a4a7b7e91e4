/** Plugin content blocks as MCP content blocks; a block MCP cannot carry becomes a text block, never lost. */
import { ContentBlockSchema as McpContentBlockSchema, type ContentBlock as McpContentBlock } from '@modelcontextprotocol/sdk/types.js';
import type { ContentBlock } from '../../../plugins/sdk/src/protocol.js';

/**
 * MCP gives image, audio and embedded resources a `mimeType` but text blocks none; McpPlugin marks a
 * text block that mirrors structured content `application/json`, so a text block keeps its type in `_meta`.
 */
function keepMimeType(block: McpContentBlock, mimeType: unknown): McpContentBlock {
  if (typeof mimeType !== 'string' || 'mimeType' in block || block.type !== 'text') return block;
  return { ...block, _meta: { ...block._meta, mimeType } };
}

export function toMcpContent(blocks: readonly ContentBlock[]): McpContentBlock[] {
  return blocks.map((block) => {
    // .NET peers may write unset optionals as null, which MCP's schemas reject; drop them before checking.
    const cleaned = Object.fromEntries(Object.entries(block).filter(([, v]) => v !== null && v !== undefined));
    const parsed = McpContentBlockSchema.safeParse(cleaned);
    return parsed.success ? keepMimeType(parsed.data, cleaned['mimeType']) : { type: 'text', text: JSON.stringify(block) };
  });
}
