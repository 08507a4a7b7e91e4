/** How to point each common MCP client at Junction: one group per client, each form with where it goes, its docs and a copy button. */
import type { ClientSnippetView } from '../store/types.js';
import { groupSnippets, snippetFacts } from '../lib/snippets.js';
import { CopyButton } from './CopyButton.js';

export function ClientSnippets({ snippets, scope }: { snippets: readonly ClientSnippetView[]; scope?: string }) {
  return (
    <div className="client-snippets">
      {groupSnippets(snippets).map((group) => (
        <section key={group.client} className="snippet-group" aria-label={`${group.client}${scope ? ` for ${scope}` : ''}`} data-testid="snippet-group">
          <h4>{group.client}</h4>
          {group.snippets.map((s) => (
            <figure key={s.client} className="snippet">
              <figcaption>
                {s.form && <strong>{s.form}</strong>} <span className="muted">{snippetFacts(s)}</span>
                {s.docs && (
                  <>
                    {' '}
                    <a href={s.docs} target="_blank" rel="noreferrer noopener">
                      docs
                    </a>
                  </>
                )}{' '}
                <CopyButton text={s.text} label={`${s.client} configuration`} />
              </figcaption>
              <pre tabIndex={0} aria-label={`${s.client} configuration`}>{s.text}</pre>
            </figure>
          ))}
        </section>
      ))}
    </div>
  );
}
