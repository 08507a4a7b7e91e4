/**
 * The modal a request waiting for the operator is answered in (an elicitation, a sampling request): the
 * browser's own dialog, which keeps focus inside it; it opens with its request and closes when the
 * request is answered or withdrawn, or on Escape (the request then stays waiting, behind its banner).
 */
import { useEffect, useRef, type ReactNode } from 'react';

export function PromptDialog({ open, labelledBy, testId, onClose, children }: { open: boolean; labelledBy: string; testId: string; onClose: () => void; children: ReactNode }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const el = dialog.current;
    if (!el) return;
    if (open && !el.open) el.showModal();
    if (!open && el.open) el.close();
  }, [open]);
  return (
    <dialog ref={dialog} className="modal" aria-labelledby={labelledBy} onClose={onClose} data-testid={testId}>
      {children}
    </dialog>
  );
}
