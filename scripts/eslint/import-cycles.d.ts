import type { Rule } from 'eslint';

export declare const CYCLE_ROOTS: string[];
export declare const importCycles: Rule.RuleModule;
export declare function importsOf(file: string, roots?: string[], text?: string): string[];
export declare function cyclesIn(roots?: string[]): string[][];
