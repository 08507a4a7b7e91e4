import type { Rule } from 'eslint';

export declare const roomDoors: Rule.RuleModule;
