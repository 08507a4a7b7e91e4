/**
 * Compiled JSON Schema validators keyed by the schema's text. ajv keeps every schema object it ever
 * compiled (its cache is keyed by object identity), and schemas that arrive over the wire are new
 * objects each time (a plugin's tool list on every reconnect, an elicitation's requested schema on every
 * request): compiled per object, each arrival leaked its validator. Keyed by text, equal schemas share
 * one; past `max` distinct texts the compiler is replaced, which drops ajv's own cache with it.
 */
export const DEFAULT_MAX_SCHEMAS = 1_000;

export class SchemaTextCache<Compiler, Validator> {
  private compiler: Compiler;
  private readonly byText = new Map<string, Validator>();

  constructor(
    private readonly createCompiler: () => Compiler,
    private readonly compileWith: (compiler: Compiler, schema: object) => Validator,
    private readonly max = DEFAULT_MAX_SCHEMAS,
  ) {
    this.compiler = createCompiler();
  }

  /** Distinct schema texts compiled by the current compiler. */
  get size(): number {
    return this.byText.size;
  }

  /** The validator for `schema`, compiled on first sight of its text; a compile that throws is not cached. */
  get(schema: object): Validator {
    const text = JSON.stringify(schema);
    if (this.byText.has(text)) return this.byText.get(text) as Validator;
    if (this.byText.size >= this.max) {
      this.byText.clear();
      this.compiler = this.createCompiler();
    }
    const validator = this.compileWith(this.compiler, schema);
    this.byText.set(text, validator);
    return validator;
  }
}
