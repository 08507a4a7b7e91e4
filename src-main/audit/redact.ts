/**
 * Redaction: pure domain logic applied to a call's arguments and result before they are stored, shown or
 * exported. These rules, all applied: keys named like a secret (see DEFAULT_SECRET_KEY), the value of a
 * name/value pair whose name is one, credentials in URLs (`scheme://user:password@`), configured
 * JSON pointers into `{ arguments, result }` (`*` matches any key or index), and configured regular
 * expressions replacing matching text inside any string. Strings that hold JSON text (MCP results carry
 * their structured content again as text) are redacted inside and re-serialised, so a secret cannot
 * survive as an escaped copy.
 */
import { JunctionError, type CallJson, type JsonText } from '../contracts/index.js';
import { flatText, isJsonSpace, jsonStringEnd } from '../shared/index.js';

export const REDACTED = '[redacted]';

/** Words that make a key a secret's wherever they stand in it, ignoring case. */
const SECRET_ANYWHERE = ['token', 'passw(or)?d', 'passphrase', 'pwd', 'secret', 'api[-_]?key', 'authorization', 'cookie', 'credential', 'private[-_]?key', 'ssh[-_]?key'];
/** Words that also start ordinary ones (`author`), so they count only as a whole word of the key (`auth`, `basic_auth`, `x-auth`, `bearer`). */
const SECRET_WORDS = ['auth', 'bearer'];

/** Keys whose values are secrets by default. */
export const DEFAULT_SECRET_KEY = new RegExp(`${SECRET_ANYWHERE.join('|')}|(?:^|[-_.\\s])(?:${SECRET_WORDS.join('|')})(?:$|[-_.\\s])`, 'i');

/**
 * A header-like pair, `{"name":"Authorization","value":…}` (HAR, fetch and .NET header lists): the key
 * naming the secret is one field's value, so the pair's `value` is what gets redacted.
 */
const PAIR_NAME_FIELDS = ['name', 'key'] as const;
const PAIR_VALUE_FIELD = 'value';

/**
 * Credentials in a URL's user information (`scheme://user:password@host`), found from their `://` (a
 * literal a regular expression finds fast; one matching the scheme first would rescan every run of
 * letters, quadratic on a megabyte of text). `SCHEME_CHAR` must precede it.
 */
const URL_CREDENTIALS = /:\/\/([^\s/?#@:"]+:[^\s/?#@"]*)@/gi;
const SCHEME_CHAR = /[a-z0-9+.-]/i;

/**
 * Tested on a whole JSON text before any parsing (see `mayRedact`): a word that may be part of a secret
 * key or a pair's name. A superset of what the walk redacts by key; a false hit (`author`) costs only the walk.
 */
const SECRET_TEXT = new RegExp([...SECRET_ANYWHERE, ...SECRET_WORDS].join('|'), 'i');

/** Whether `text` holds credentials in a URL. */
function urlCredentialsIn(text: string): boolean {
  if (!text.includes('://')) return false;
  URL_CREDENTIALS.lastIndex = 0;
  return URL_CREDENTIALS.test(text);
}

/**
 * Whether `text` may hold something redaction replaces: a secret's key or pair name, or a URL's
 * credentials. The words are searched in the whole text first, as that answers most calls at once;
 * only when they occur is the text read where redaction looks (`secretWhereRedactionLooks`), because
 * base64 of a hundred kilobytes or more practically always spells one of them ("auth", "Pwd", "TOKEN")
 * and would otherwise send every screenshot through the full redaction walk.
 */
function secretIn(rules: RedactionRules, text: string): boolean {
  if (!rules.secretText.test(text) && !urlCredentialsIn(text)) return false;
  return secretWhereRedactionLooks(rules, text);
}

/** A string value whose decoded text `trimStart` may find JSON in: white space, an escape that may decode to it, or `{` / `[`. */
const MAY_HOLD_JSON = /^[\s\\[{]/;

/**
 * Whether a key or a pair's name, as JSON text, may name a secret. Without a backslash the text is the
 * decoded name and `secretKey` decides exactly as the walk does; an escaped one is searched for the words.
 */
const mayNameSecret = (rules: RedactionRules, raw: string): boolean => (raw.includes('\\') ? rules.secretText : rules.secretKey).test(raw);

const isPairNameField = (key: string): boolean => (PAIR_NAME_FIELDS as readonly string[]).includes(key);

/**
 * Whether the walk may change a string value, given as JSON text: when it holds a URL's credentials,
 * when it may be JSON text (which the walk parses and redacts inside) holding one of the words, or when
 * it is a name/value pair's name (`pairName`) naming a secret.
 */
function valueMayBeRedacted(rules: RedactionRules, raw: string, pairName: boolean): boolean {
  return urlCredentialsIn(raw) || (pairName && mayNameSecret(rules, raw)) || (MAY_HOLD_JSON.test(raw) && rules.secretText.test(raw));
}

/**
 * `secretIn` read token by token, each string found by its quotes (crossed at memory speed, however
 * long). A key counts when it names a secret. A string value counts only where the walk in `Redactor`
 * would act on it: when it holds a URL's credentials, when it may be JSON text (which the walk parses
 * and redacts inside) holding one of the words, or when it is the `name` or `key` of a name/value pair
 * and names a secret. Escaped text holds every word its decoded text holds (JSON.stringify escapes no
 * letter, `-` or `_`), and a key spelled with an escape is taken for a pair's name, so this is still a
 * superset of what the walk redacts. Text that is not JSON as far as its quotes go counts.
 */
function secretWhereRedactionLooks(rules: RedactionRules, text: string): boolean {
  /** The key just read, while its value may come next, and where its colon is. */
  let key: { raw: string; colon: number } | undefined;
  for (let open = text.indexOf('"'); open !== -1; ) {
    const close = jsonStringEnd(text, open + 1);
    if (close === -1) return true;
    const raw = text.slice(open + 1, close);
    let after = close + 1;
    while (after < text.length && isJsonSpace(text.charCodeAt(after))) after++;
    if (text[after] === ':') {
      if (mayNameSecret(rules, raw)) return true;
      key = { raw, colon: after };
    } else {
      const pairName = key !== undefined && text.slice(key.colon + 1, open).trim() === '' && (key.raw.includes('\\') || isPairNameField(key.raw));
      if (valueMayBeRedacted(rules, raw, pairName)) return true;
      key = undefined;
    }
    open = text.indexOf('"', close + 1);
  }
  return false;
}

export interface RedactionRules {
  secretKey: RegExp;
  /** Tested on JSON text: false means no key or pair in it can be redacted (see SECRET_TEXT). */
  secretText: RegExp;
  /** Parsed pointers, each a list of unescaped segments from the `{ arguments, result }` root. */
  pointers: readonly (readonly string[])[];
  patterns: readonly RegExp[];
}

export interface Redacted<T> {
  value: T;
  /** JSON pointers (into `{ arguments, result }`) of the values that were replaced, for the console to mark. */
  paths: string[];
}

const REGEX_PREFIX = 're:';

function parsePointer(text: string): string[] {
  if (!text.startsWith('/')) throw new JunctionError('ConfigInvalid', `redact: '${text}' is neither a JSON pointer (starting with /) nor a regular expression (starting with ${REGEX_PREFIX}).`);
  return text
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

const escapeSegment = (segment: string): string => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * Compiles the `redact` setting: entries starting with `/` are JSON pointers into `{ arguments, result }`,
 * entries starting with `re:` are case-sensitive regular expressions (write `(?i)`-free patterns; use
 * character classes for case). A malformed entry is a configuration error naming it.
 */
export function compileRedaction(entries: readonly string[]): RedactionRules {
  const pointers: string[][] = [];
  const patterns: RegExp[] = [];
  for (const entry of entries) {
    if (entry.startsWith(REGEX_PREFIX)) {
      const source = entry.slice(REGEX_PREFIX.length);
      if (source.length === 0) throw new JunctionError('ConfigInvalid', `redact: '${entry}' holds an empty regular expression.`);
      try {
        patterns.push(new RegExp(source, 'g'));
      } catch (error) {
        throw new JunctionError('ConfigInvalid', `redact: '${entry}' is not a valid regular expression: ${(error as Error).message}`);
      }
    } else {
      pointers.push(parsePointer(entry));
    }
  }
  return { secretKey: DEFAULT_SECRET_KEY, secretText: SECRET_TEXT, pointers, patterns };
}

export const DEFAULT_REDACTION: RedactionRules = compileRedaction([]);

function pointerMatches(pointer: readonly string[], path: readonly string[]): boolean {
  if (pointer.length !== path.length) return false;
  return pointer.every((segment, i) => segment === '*' || segment === path[i]);
}

/** Shorter replaced values are not scrubbed from other strings: too likely to be ordinary text. */
const MIN_SCRUB_LENGTH = 4;

function collectLeaves(value: unknown, into: Set<string>): void {
  if (value === null || value === undefined) return;
  if (typeof value === 'object') {
    for (const item of Object.values(value)) collectLeaves(item, into);
    return;
  }
  const text = String(value);
  if (text.length >= MIN_SCRUB_LENGTH) into.add(text);
}

class Redactor {
  readonly paths: string[] = [];
  /** Every replaced value's text, scrubbed afterwards from all other strings (copies inside result text). */
  readonly secrets = new Set<string>();

  constructor(private readonly rules: RedactionRules) {}

  private mark(path: readonly string[], original: unknown): typeof REDACTED {
    this.paths.push(`/${path.map(escapeSegment).join('/')}`);
    collectLeaves(original, this.secrets);
    return REDACTED;
  }

  /** Replaces remaining literal copies of redacted values (for example the text twin of structured content). */
  scrub(value: unknown): unknown {
    if (this.secrets.size === 0) return value;
    if (typeof value === 'string') {
      let out = value;
      for (const secret of this.secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
      return out;
    }
    if (Array.isArray(value)) return value.map((item) => this.scrub(item));
    if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.scrub(v)]));
    return value;
  }

  private byPointer(path: readonly string[]): boolean {
    return this.rules.pointers.some((p) => pointerMatches(p, path));
  }

  /** `path` is the current location, extended and restored in place so walking a large result allocates little. */
  value(value: unknown, path: string[]): unknown {
    if (path.length > 0 && this.rules.pointers.length > 0 && this.byPointer(path)) return this.mark(path, value);
    if (typeof value === 'string') return this.text(value, path);
    if (Array.isArray(value)) {
      return value.map((item, i) => {
        path.push(String(i));
        const out = this.value(item, path);
        path.pop();
        return out;
      });
    }
    if (value !== null && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      const pair = this.secretPair(value as Record<string, unknown>);
      for (const [key, item] of Object.entries(value)) {
        path.push(key);
        const secret = pair ? key === PAIR_VALUE_FIELD : this.rules.secretKey.test(key);
        out[key] = secret && item !== null && item !== undefined && item !== '' ? this.mark(path, item) : this.value(item, path);
        path.pop();
      }
      return out;
    }
    return value;
  }

  /** Whether the object is a name/value pair whose name is a secret's (its `value` is then redacted). */
  private secretPair(object: Record<string, unknown>): boolean {
    if (!(PAIR_VALUE_FIELD in object)) return false;
    return PAIR_NAME_FIELDS.some((field) => {
      const name = object[field];
      return typeof name === 'string' && this.rules.secretKey.test(name);
    });
  }

  private text(text: string, path: string[]): string {
    const embedded = this.embeddedJson(text, path);
    let out = this.urlCredentials(embedded ?? text, path);
    for (const pattern of this.rules.patterns) {
      pattern.lastIndex = 0;
      if (pattern.test(out)) {
        pattern.lastIndex = 0;
        out = out.replace(pattern, REDACTED);
        this.paths.push(`/${path.map(escapeSegment).join('/')}`);
      }
    }
    return out;
  }

  /** The text with the user information of each URL holding credentials replaced; the credentials are scrubbed elsewhere too. */
  private urlCredentials(text: string, path: string[]): string {
    if (!text.includes('://')) return text;
    let found = false;
    const out = text.replace(URL_CREDENTIALS, (match: string, credentials: string, offset: number) => {
      if (offset === 0 || !SCHEME_CHAR.test(text[offset - 1]!)) return match;
      found = true;
      collectLeaves(credentials, this.secrets);
      return `://${REDACTED}@`;
    });
    if (found) this.paths.push(`/${path.map(escapeSegment).join('/')}`);
    return out;
  }

  /** Re-serialised JSON text when the string is a JSON object or array and something inside it was redacted. */
  private embeddedJson(text: string, path: string[]): string | undefined {
    const first = text.trimStart()[0];
    if (first !== '{' && first !== '[') return undefined;
    // Only a key or pair named like a secret, or a URL's credentials, can make embedded JSON need redaction (pointers do not reach inside text).
    if (!secretIn(this.rules, text)) return undefined;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return undefined;
    }
    const before = this.paths.length;
    // Pointers address the document's own structure, not JSON text nested inside a string.
    const inner = new Redactor({ ...this.rules, pointers: [] });
    const redacted = inner.value(parsed, []);
    if (inner.paths.length === 0) return undefined;
    for (const secret of inner.secrets) this.secrets.add(secret);
    this.paths.splice(before, 0, ...inner.paths.map((p) => `/${path.map(escapeSegment).join('/')}${p}`));
    return JSON.stringify(redacted);
  }
}

/** Redacts a call's arguments and result together, so pointers can address either. Never mutates its input. */
export function redactCall(doc: { arguments: unknown; result?: unknown }, rules: RedactionRules = DEFAULT_REDACTION): Redacted<{ arguments: unknown; result?: unknown }> {
  const redactor = new Redactor(rules);
  const args = redactor.value(doc.arguments, ['arguments']);
  const result = doc.result === undefined ? undefined : redactor.value(doc.result, ['result']);
  const value: { arguments: unknown; result?: unknown } = { arguments: redactor.scrub(args) };
  if (doc.result !== undefined) value.result = redactor.scrub(result);
  return { value, paths: redactor.paths };
}

/** Redacts any other recorded payload (transaction and plugin events) with the same rules, rooted at `/`. */
export function redactValue<T>(value: T, rules: RedactionRules = DEFAULT_REDACTION): Redacted<T> {
  const redactor = new Redactor(rules);
  return { value: redactor.scrub(redactor.value(value, [])) as T, paths: redactor.paths };
}

/**
 * Whether redaction could change values serialised as `texts`. It changes a value only through a
 * configured pointer or pattern, a key or a pair's name like a secret, or a URL's credentials; each
 * stands in JSON.stringify's text verbatim (it escapes no letter, `-`, `_`, `:`, `/` or `@`, all
 * `secretIn` looks for). So with no
 * rule configured and no match anywhere in the text, the redacted value serialises to exactly that text,
 * and the walk that copies every value can be skipped: most calls carry no secret-like key. Sound only
 * for text JSON.stringify wrote: an agent's own bytes may spell a key with escapes.
 */
export function mayRedact(rules: RedactionRules, ...texts: ReadonlyArray<JsonText | undefined>): boolean {
  return rules.pointers.length > 0 || rules.patterns.length > 0 || texts.some((text) => text !== undefined && secretInText(rules, text));
}

/**
 * `secretIn` for JSON text whole or in pieces. In pieces, the JSON around the long strings is read as JSON
 * with each long string left empty, and each long string (written unescaped, its key known) as the value
 * it is: nothing is joined.
 */
function secretInText(rules: RedactionRules, text: JsonText): boolean {
  if (typeof text === 'string') return secretIn(rules, text);
  const { parts, leaves } = text;
  for (const [index, { key }] of leaves.entries()) {
    if (valueMayBeRedacted(rules, parts[2 * index + 1]!, key !== undefined && isPairNameField(key))) return true;
  }
  return secretIn(rules, parts.filter((_, index) => index % 2 === 0).join(''));
}

/** `redactCall` for a call serialised by JSON.stringify; parses and re-serialises only when redaction may change it. */
export function redactCallJson(json: CallJson, rules: RedactionRules = DEFAULT_REDACTION): Redacted<CallJson> {
  if (!mayRedact(rules, json.arguments, json.result)) return { value: json, paths: [] };
  const args: unknown = JSON.parse(flatText(json.arguments));
  const redacted = redactCall(json.result === undefined ? { arguments: args } : { arguments: args, result: JSON.parse(flatText(json.result)) }, rules);
  const value: CallJson = { arguments: JSON.stringify(redacted.value.arguments) ?? 'null' };
  if (json.result !== undefined) value.result = JSON.stringify(redacted.value.result) ?? 'null';
  return { value, paths: redacted.paths };
}
