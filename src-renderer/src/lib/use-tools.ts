/** The tool catalogue (with per-tool totals), fetched when a view needs it and again when plugins change. */
import { useEffect, useState } from 'react';
import type { ToolCatalogueEntry } from '../store/types.js';
import { useConsole } from '../store/store.js';

export function useToolCatalogue(): { tools: ToolCatalogueEntry[] | undefined; error: string | undefined } {
  const channel = useConsole((s) => s.channel);
  const plugins = useConsole((s) => s.data.plugins);
  const [tools, setTools] = useState<ToolCatalogueEntry[] | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  useEffect(() => {
    let live = true;
    void channel?.invoke('tools', {}).then((r) => {
      if (!live) return;
      if (r.ok) {
        setTools(r.value);
        setError(undefined);
      } else setError(`${r.error.code}: ${r.error.message}`);
    });
    return () => {
      live = false;
    };
  }, [channel, plugins]);
  return { tools, error };
}
