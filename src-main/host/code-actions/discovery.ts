/**
 * Discovers code fixes and refactorings in one document of one snapshot, applying the exclusion policy
 * as it goes and stopping one action past the limit, so the bound is applied before the work is done.
 * Synchronous: the language service is only valid until the next retarget.
 */
import type ts from 'typescript';
import { typescript } from '../workspace/index.js';
import type { Snapshot } from '../workspace/index.js';
import type { CodeFixDescriptor, FixAllScope, RefactorDescriptor } from './descriptors.js';
import type { ExclusionLog } from './exclusions.js';
import { applicableRefactors, codeFixes, refactorEdits, refactorPosition } from './language-service-calls.js';
import { fingerprintFileChanges } from './normalise.js';

export type DiscoveryKinds = 'codeFixes' | 'refactorings' | 'all';

export interface DiscoveryRequest {
  ls: ts.LanguageService;
  realRoot: string;
  snapshot: Snapshot;
  path: string;
  fileName: string;
  /** Omitted: the whole document. Equal ends: a caret. */
  range?: { start: number; end: number };
  kinds: DiscoveryKinds;
  diagnosticCodes?: readonly number[];
  limit: number;
  /** The document's fix-capable diagnostics, sorted by position. */
  diagnostics: () => readonly ts.Diagnostic[];
}

export interface DiscoveredAction {
  descriptor: CodeFixDescriptor | RefactorDescriptor;
  title: string;
  start: number;
  length: number;
  diagnostics?: Array<{ code: number; message: string }>;
  fixAllScopes?: FixAllScope[];
}

const MAX_MESSAGE = 300;

/** Refactorings that need arguments only a UI can supply (a target file), though the service does not flag them. */
const INTERACTIVE_REFACTORS: ReadonlySet<string> = new Set(['Move to file']);

function intersects(range: { start: number; end: number } | undefined, start: number, length: number): boolean {
  if (!range) return true;
  if (range.start === range.end) return start <= range.start && range.start <= start + length;
  return start < range.end && range.start < start + length;
}

function diagnosticsIn(request: DiscoveryRequest): ts.Diagnostic[] {
  const wanted = request.diagnosticCodes ? new Set(request.diagnosticCodes) : undefined;
  return request.diagnostics().filter((d) => (!wanted || wanted.has(d.code)) && intersects(request.range, d.start!, d.length ?? 0));
}

function* codeFixActions(request: DiscoveryRequest, exclusions: ExclusionLog): Generator<DiscoveredAction> {
  for (const d of diagnosticsIn(request)) {
    const start = d.start!;
    const length = d.length ?? 0;
    const message = typescript().flattenDiagnosticMessageText(d.messageText, '\n').slice(0, MAX_MESSAGE);
    for (const fix of codeFixes(request.ls, request.fileName, start, start + length, d.code)) {
      if (fix.commands && fix.commands.length > 0) {
        exclusions.record({ path: request.path, title: fix.description, reason: 'commands', detail: `runs ${fix.commands.length} command(s), e.g. a package install` });
        continue;
      }
      const fingerprint = fingerprintFileChanges(request.realRoot, request.snapshot, fix.changes);
      if ('excluded' in fingerprint) {
        exclusions.record({ path: request.path, title: fix.description, reason: fingerprint.excluded, detail: fingerprint.detail });
        continue;
      }
      if (fingerprint.ok === '') continue;
      const descriptor: CodeFixDescriptor = {
        kind: 'codeFix',
        path: request.path,
        fixName: fix.fixName,
        description: fix.description,
        diagnostic: { code: d.code, start, length, message },
        fingerprint: fingerprint.ok,
      };
      if (fix.fixId !== undefined) descriptor.fixId = String(fix.fixId);
      if (fix.fixAllDescription !== undefined) descriptor.fixAllDescription = fix.fixAllDescription;
      const action: DiscoveredAction = { descriptor, title: fix.description, start, length, diagnostics: [{ code: d.code, message }] };
      if (fix.fixId !== undefined) action.fixAllScopes = ['document', 'project'];
      yield action;
    }
  }
}

function* refactorActions(request: DiscoveryRequest, exclusions: ExclusionLog): Generator<DiscoveredAction> {
  const text = request.snapshot.get(request.path)?.text ?? '';
  const { start, end } = request.range ?? { start: 0, end: text.length };
  const at = refactorPosition(start, end);
  for (const info of applicableRefactors(request.ls, request.fileName, at)) {
    for (const action of info.actions) {
      if (action.notApplicableReason) continue;
      if (action.isInteractive || INTERACTIVE_REFACTORS.has(info.name)) {
        exclusions.record({ path: request.path, title: action.description, reason: 'interactive', detail: `refactoring '${info.name}' needs interactive arguments` });
        continue;
      }
      let edits: ts.RefactorEditInfo | undefined;
      try {
        edits = refactorEdits(request.ls, request.fileName, at, info.name, action.name);
      } catch (error) {
        // One failing provider must not hide every other action at this location.
        exclusions.record({ path: request.path, title: action.description, reason: 'providerFailed', detail: error instanceof Error ? error.message.slice(0, 200) : String(error) });
        continue;
      }
      if (!edits) continue;
      if (edits.commands && edits.commands.length > 0) {
        exclusions.record({ path: request.path, title: action.description, reason: 'commands', detail: `runs ${edits.commands.length} command(s)` });
        continue;
      }
      const fingerprint = fingerprintFileChanges(request.realRoot, request.snapshot, edits.edits);
      if ('excluded' in fingerprint) {
        exclusions.record({ path: request.path, title: action.description, reason: fingerprint.excluded, detail: fingerprint.detail });
        continue;
      }
      if (fingerprint.ok === '') continue;
      const descriptor: RefactorDescriptor = {
        kind: 'refactoring',
        path: request.path,
        start,
        end,
        refactorName: info.name,
        actionName: action.name,
        description: action.description,
        fingerprint: fingerprint.ok,
      };
      if (action.kind !== undefined) descriptor.refactorKind = action.kind;
      yield { descriptor, title: action.description, start, length: end - start };
    }
  }
}

/** At most `limit` actions, and whether more exist. */
export function discoverActions(request: DiscoveryRequest, exclusions: ExclusionLog): { items: DiscoveredAction[]; hasMore: boolean } {
  const sources: Array<Generator<DiscoveredAction>> = [];
  if (request.kinds !== 'refactorings') sources.push(codeFixActions(request, exclusions));
  if (request.kinds !== 'codeFixes') sources.push(refactorActions(request, exclusions));
  const items: DiscoveredAction[] = [];
  for (const source of sources) {
    for (const action of source) {
      if (items.length === request.limit) return { items, hasMore: true };
      items.push(action);
    }
  }
  return { items, hasMore: false };
}
