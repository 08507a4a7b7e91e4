/** Plugin content blocks as MCP content blocks; a block MCP cannot carry becomes a text block, never lost. */
import { ContentBlockSchema as McpContentBlockSchema, type ContentBlock as McpContentBlock } from '@modelcontextprotocol/sdk/types.js';
import type { ContentBlock } from '../../../plugins/sdk/wire/index.js';
import { isBase64, isBase64Checked, keysAre, markBase64Checked, withFields } from '../../shared/index.js';

/**
 * MCP gives image, audio and embedded resources a `mimeType` but text blocks none; McpPlugin marks a
 * text block that mirrors structured content `application/json`, so a text block keeps its type in `_meta`.
 */
function keepMimeType(block: McpContentBlock, mimeType: unknown): McpContentBlock {
  if (typeof mimeType !== 'string' || 'mimeType' in block || block.type !== 'text') return block;
  return withFields(block, { _meta: { ...block._meta, mimeType } });
}

/** Any block, through MCP's own schema. */
export function checkedContentBlock(block: ContentBlock): McpContentBlock {
  // .NET peers may write unset optionals as null, which MCP's schemas reject; drop them before checking.
  const cleaned = Object.fromEntries(Object.entries(block).filter(([, v]) => v !== null && v !== undefined));
  // McpPlugin's `ResponseCallTool.Success()` (a tool that returns nothing) is a text block without text.
  if (cleaned['type'] === 'text' && !('text' in cleaned)) cleaned['text'] = '';
  const parsed = McpContentBlockSchema.safeParse(cleaned);
  return parsed.success ? keepMimeType(parsed.data, cleaned['mimeType']) : { type: 'text', text: JSON.stringify(block) };
}

const PLAIN_TEXT_FIELDS = new Set(['type', 'text', 'mimeType']);

/**
 * The block nearly every tool answers with, a text block with at most a `mimeType` besides (other fields
 * null or absent), as `checkedContentBlock` would yield it, without the schema's union parse on every
 * call; undefined for any other block. test/unit/bridge/calls/content.test.ts holds the two to agreement.
 * A text block without text is McpPlugin's answer for a tool that returns nothing
 * (`ResponseCallTool.Success()`): empty text, as McpPlugin.Server gives it.
 */
export function plainTextBlock(block: ContentBlock): McpContentBlock | undefined {
  const raw = block['text'];
  const text = raw === undefined || raw === null ? '' : raw;
  if (block.type !== 'text' || typeof text !== 'string') return undefined;
  for (const key in block) {
    const value = block[key];
    if (!PLAIN_TEXT_FIELDS.has(key) && value !== null && value !== undefined) return undefined;
  }
  return keepMimeType({ type: 'text', text }, block['mimeType']);
}

const MEDIA_KEYS = ['type', 'data', 'mimeType'];
const MEDIA_FIELDS = new Set(MEDIA_KEYS);

/**
 * An image or audio block with a string `data` and `mimeType` and other fields null or absent, as
 * `checkedContentBlock` would yield it, without the schema, whose base64 check decodes the whole data
 * with `atob` (for a 16 MB screenshot tens of milliseconds and 12 MB of garbage). The data is checked
 * here unless the block's was already (`contentProblem`); undefined for any other block, or data that
 * is not strict base64, which the schema then reads. The block made is marked checked in turn, so the
 * MCP room's result check does not read the data a third time.
 */
export function plainMediaBlock(block: ContentBlock): McpContentBlock | undefined {
  const { type, data, mimeType } = block;
  if ((type !== 'image' && type !== 'audio') || typeof data !== 'string' || typeof mimeType !== 'string') return undefined;
  for (const key in block) {
    const value = block[key];
    if (!MEDIA_FIELDS.has(key) && value !== null && value !== undefined) return undefined;
  }
  if (!isBase64Checked(block) && !isBase64(data)) return undefined;
  // Exactly that block already (its keys in that order, nothing else): taken as it is, with what is known of its data.
  if (keysAre(block, MEDIA_KEYS)) return markBase64Checked(block) as McpContentBlock;
  const media: McpContentBlock = type === 'image' ? { type: 'image', data, mimeType } : { type: 'audio', data, mimeType };
  return markBase64Checked(media);
}

/**
 * Why a plugin's content cannot reach an agent as it is, or undefined: image and audio blocks carry
 * base64 `data` and a `mimeType` (MCP requires both, and an agent's SDK refuses the whole result
 * otherwise). Checked without decoding, so a screenshot is scanned once and never copied; a block that
 * passes is frozen and marked checked (shared/base64.ts), so converting it does not scan it again.
 */
export function contentProblem(blocks: readonly ContentBlock[]): string | undefined {
  for (const [index, block] of blocks.entries()) {
    if (block.type !== 'image' && block.type !== 'audio') continue;
    const { data, mimeType } = block;
    if (typeof data !== 'string') return `content[${index}]: an ${block.type} block needs its data as a base64 string`;
    if (!isBase64Checked(block) && !isBase64(data)) return `content[${index}]: an ${block.type} block's data is not base64`;
    if (typeof mimeType !== 'string' || mimeType === '') return `content[${index}]: an ${block.type} block needs a mimeType`;
    markBase64Checked(block);
  }
  return undefined;
}

export function toMcpContent(blocks: readonly ContentBlock[]): McpContentBlock[] {
  return blocks.map((block) => plainTextBlock(block) ?? plainMediaBlock(block) ?? checkedContentBlock(block));
}
