/**
 * Read-only analysis services the host composes for each invocation. Plugins compile against these
 * contracts and never construct their implementations.
 */
import type { ResolvedLocation } from './snapshot.js';

export interface ReferenceOccurrence {
  readonly path: string;
  readonly start: number;
  readonly length: number;
  readonly line: number;
  readonly column: number;
  readonly isDefinition: boolean;
  readonly isWriteAccess: boolean;
}

export interface ReferenceDiscoveryService {
  /**
   * Every occurrence of the symbol at `location` within `documents` (all documents when omitted), each
   * once, in path then offset order. Ordering beyond that, limiting and projection belong to the tool.
   */
  findReferences(location: ResolvedLocation, documents?: readonly string[]): Promise<readonly ReferenceOccurrence[]>;
}

export interface TypeHierarchyEntry {
  readonly name: string;
  readonly kind: 'class' | 'interface';
  readonly path: string;
  readonly start: number;
  /** Shortest inheritance distance from the root: 1 for a direct subtype. */
  readonly distance: number;
}

export interface TypeHierarchyService {
  /** Each unique class or interface deriving from or implementing the type at `location`. */
  findDerivedTypes(location: ResolvedLocation, documents?: readonly string[]): Promise<readonly TypeHierarchyEntry[]>;
}

export interface AnalysisServices {
  readonly references: ReferenceDiscoveryService;
  readonly typeHierarchy: TypeHierarchyService;
}
