/** A tool result as an operator reads it: the payload as a tree (or text, or image), the raw MCP envelope on demand. */
import { useMemo, useState } from 'react';
import { readableResult, type ResultPart } from '../lib/tool-result.js';
import { JsonTree } from './JsonTree.js';

function Part({ part, index }: { part: ResultPart; index: number }) {
  switch (part.kind) {
    case 'json':
      return <JsonTree value={part.value} label={`Result part ${index + 1}`} />;
    case 'text':
      return <pre className="result-text" tabIndex={0} aria-label={`Result text ${index + 1}`}>{part.text}</pre>;
    case 'image':
      return <img className="result-image" src={part.src} alt={`Image result ${index + 1} (${part.mimeType})`} />;
    case 'resource':
      return (
        <div className="result-resource">
          <code>{part.uri}</code> {part.mimeType && <span className="muted">{part.mimeType}</span>}
          {part.text !== undefined && <pre className="result-text" tabIndex={0}>{part.text}</pre>}
        </div>
      );
  }
}

export function CallResult({ result, label }: { result: unknown; label: string }) {
  const [raw, setRaw] = useState(false);
  const readable = useMemo(() => readableResult(result), [result]);
  return (
    <div className="call-result" data-testid="call-result">
      <div className="result-head">
        <h4>{label}</h4>
        <button type="button" className="secondary small" aria-pressed={raw} onClick={() => setRaw((r) => !r)}>
          Raw envelope
        </button>
      </div>
      {readable.error && (
        <p className="callout bad" data-testid="result-error">
          <strong>{readable.error.code}</strong> {readable.error.message}
        </p>
      )}
      {raw ? (
        <pre className="json" tabIndex={0} aria-label={`${label}, raw MCP envelope`} data-testid="result-raw">{JSON.stringify(result, null, 2)}</pre>
      ) : (
        readable.parts.map((part, i) => <Part key={i} part={part} index={i} />)
      )}
    </div>
  );
}
