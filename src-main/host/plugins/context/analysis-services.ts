/**
 * The read-only analysis services plugins receive, over the TypeScript language service of one snapshot.
 * Each call retargets the service to that snapshot and finishes synchronously, so a plugin that awaits
 * between calls still reads the state its context was built for.
 */
import { join } from 'node:path';
import type ts from 'typescript';
import { typescript, isWithin, type Snapshot } from '../../workspace/index.js';
import type { AnalysisServices, ReferenceOccurrence, ResolvedLocation, TypeHierarchyEntry } from '../../../../plugins/host-api/index.js';
import { lineStarts, toLineColumn } from '../../transactions/index.js';

export interface AnalysisSource {
  realRoot: string;
  snapshot: Snapshot;
  /** The language service reading `snapshot`; called at the start of every service call. */
  languageService(): ts.LanguageService;
}

function pathOf(realRoot: string, snapshot: Snapshot, fileName: string): string | undefined {
  const normalised = fileName.replace(/\\/g, '/');
  const root = realRoot.replace(/\\/g, '/');
  if (!isWithin(root, normalised) || normalised.includes('/node_modules/')) return undefined;
  const path = normalised.slice(root.length + 1);
  return snapshot.has(path) ? path : undefined;
}

const byPathThenStart = (a: { path: string; start: number }, b: { path: string; start: number }) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.start - b.start);

function findReferences(source: AnalysisSource, location: ResolvedLocation, documents?: readonly string[]): ReferenceOccurrence[] {
  const allowed = documents ? new Set(documents) : undefined;
  const symbols = source.languageService().findReferences(join(source.realRoot, location.path), location.offset) ?? [];
  const seen = new Set<string>();
  const startsByPath = new Map<string, number[]>();
  const out: ReferenceOccurrence[] = [];
  for (const entry of symbols.flatMap((s) => s.references)) {
    const path = pathOf(source.realRoot, source.snapshot, entry.fileName);
    if (path === undefined || (allowed && !allowed.has(path))) continue;
    const key = `${path}:${entry.textSpan.start}`;
    if (seen.has(key)) continue;
    seen.add(key);
    let starts = startsByPath.get(path);
    if (!starts) startsByPath.set(path, (starts = lineStarts(source.snapshot.get(path)!.text)));
    out.push({ path, start: entry.textSpan.start, length: entry.textSpan.length, ...toLineColumn(starts, entry.textSpan.start), isDefinition: entry.isDefinition ?? false, isWriteAccess: entry.isWriteAccess });
  }
  return out.sort(byPathThenStart);
}

/** The deepest node whose span (without leading trivia) contains `offset`. */
function innermostNodeAt(sourceFile: ts.SourceFile, offset: number): ts.Node {
  let node: ts.Node = sourceFile;
  for (;;) {
    const child = typescript().forEachChild(node, (c) => (c.getStart(sourceFile) <= offset && offset < c.getEnd() ? c : undefined));
    if (!child) return node;
    node = child;
  }
}

type TypeDeclaration = ts.ClassLikeDeclaration | ts.InterfaceDeclaration;

function canonicalSymbol(checker: ts.TypeChecker, symbol: ts.Symbol | undefined): ts.Symbol | undefined {
  if (symbol && symbol.flags & typescript().SymbolFlags.Alias) return checker.getAliasedSymbol(symbol);
  return symbol;
}

function declarationsIn(sourceFile: ts.SourceFile): TypeDeclaration[] {
  const out: TypeDeclaration[] = [];
  const { forEachChild, isClassLike, isInterfaceDeclaration } = typescript();
  const visit = (node: ts.Node): void => {
    if ((isClassLike(node) || isInterfaceDeclaration(node)) && node.heritageClauses) out.push(node);
    forEachChild(node, visit);
  };
  visit(sourceFile);
  return out;
}

function findDerivedTypes(source: AnalysisSource, location: ResolvedLocation, documents?: readonly string[]): TypeHierarchyEntry[] {
  const program = source.languageService().getProgram();
  if (!program) return [];
  const checker = program.getTypeChecker();
  const rootFile = program.getSourceFile(join(source.realRoot, location.path));
  if (!rootFile) return [];
  const token = innermostNodeAt(rootFile, location.offset);
  const root = canonicalSymbol(checker, checker.getSymbolAtLocation(token));
  if (!root) return [];

  const allowed = documents ? new Set(documents) : undefined;
  const candidates: Array<{ node: TypeDeclaration; path: string; symbol: ts.Symbol; bases: ts.Symbol[] }> = [];
  for (const sf of program.getSourceFiles()) {
    const path = pathOf(source.realRoot, source.snapshot, sf.fileName);
    if (path === undefined || (allowed && !allowed.has(path))) continue;
    for (const node of declarationsIn(sf)) {
      const symbol = node.name ? canonicalSymbol(checker, checker.getSymbolAtLocation(node.name)) : undefined;
      if (!symbol) continue;
      const bases = node.heritageClauses!.flatMap((clause) => clause.types.map((t) => canonicalSymbol(checker, checker.getSymbolAtLocation(t.expression)))).filter((s): s is ts.Symbol => s !== undefined);
      candidates.push({ node, path, symbol, bases });
    }
  }

  // Breadth-first over inheritance edges gives each type its shortest distance from the root.
  const distance = new Map<ts.Symbol, number>([[root, 0]]);
  const found: TypeHierarchyEntry[] = [];
  let frontier = new Set<ts.Symbol>([root]);
  for (let depth = 1; frontier.size > 0; depth++) {
    const nextFrontier = new Set<ts.Symbol>();
    for (const c of candidates) {
      if (distance.has(c.symbol) || !c.bases.some((b) => frontier.has(b))) continue;
      distance.set(c.symbol, depth);
      nextFrontier.add(c.symbol);
      found.push({ name: c.symbol.getName(), kind: typescript().isInterfaceDeclaration(c.node) ? 'interface' : 'class', path: c.path, start: c.node.name!.getStart(), distance: depth });
    }
    frontier = nextFrontier;
  }
  return found.sort((a, b) => a.distance - b.distance || byPathThenStart(a, b));
}

export function createAnalysisServices(source: AnalysisSource): AnalysisServices {
  return Object.freeze({
    references: Object.freeze({ findReferences: async (location: ResolvedLocation, documents?: readonly string[]) => findReferences(source, location, documents) }),
    typeHierarchy: Object.freeze({ findDerivedTypes: async (location: ResolvedLocation, documents?: readonly string[]) => findDerivedTypes(source, location, documents) }),
  });
}
