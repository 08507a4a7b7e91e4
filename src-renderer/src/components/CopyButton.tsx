import { useState } from 'react';

/** Copies text to the clipboard and says so for a moment. */
export function CopyButton({ text, label, children }: { text: string; label: string; children?: React.ReactNode }) {
  const [copied, setCopied] = useState(false);
  const copy = async (): Promise<void> => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    } catch {
      setCopied(false);
    }
  };
  return (
    <button type="button" className="secondary" aria-label={`${copied ? 'Copied' : 'Copy'} ${label}`} onClick={() => void copy()}>
      {copied ? 'Copied' : (children ?? 'Copy')}
    </button>
  );
}
