/** Plugin content blocks as MCP content blocks; a block MCP cannot carry becomes a text block, never lost. */
import { ContentBlockSchema as McpContentBlockSchema, type ContentBlock as McpContentBlock } from '@modelcontextprotocol/sdk/types.js';
import type { ContentBlock } from '../../../plugins/sdk/src/protocol.js';

export function toMcpContent(blocks: readonly ContentBlock[]): McpContentBlock[] {
  return blocks.map((block) => {
    // .NET writes unset optionals as null, which MCP's schemas reject; drop them before checking.
    const cleaned = Object.fromEntries(Object.entries(block).filter(([, v]) => v !== null));
    const parsed = McpContentBlockSchema.safeParse(cleaned);
    return parsed.success ? parsed.data : { type: 'text', text: JSON.stringify(block) };
  });
}
